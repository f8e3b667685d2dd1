// Turns <time class="countdown" datetime="..."> into a live "time left". Each range
// of time keeps one form, and the step from one to the next reads as time going on:
// days and hours ("2 days 3 h", "1 day") from a day up, hours and minutes ("23 h 59 min")
// from an hour up, then a ticking clock of minutes and seconds ("59:59", "0:09").
import { t, tn } from "./i18n.js";

/** The time until `iso` in the form its range takes; "" once it has passed. Counted
 * in whole seconds rounded up, so the clock shows "0:01" until the very end. */
export function clock(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms) || ms <= 0) return "";
  const s = Math.ceil(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d > 0) return h > 0 ? tn("{n} day {h} h", "{n} days {h} h", d, { h }) : tn("{n} day", "{n} days", d);
  if (h > 0) return t("{h} h {m} min", { h, m });
  return `${m}:${String(sec).padStart(2, "0")}`;
}

/** Seconds from which a throw's time is nearly up: the last 30, or the last fifth of
 * a longer deadline (when the reminder mail goes, too), so a player has the warning
 * while there is still time to act on it. */
export const URGENT_SECONDS = 30;

/** Is the time until `iso` down to its last stretch, for a throw of `deadlineSeconds`? */
export function isUrgent(iso, deadlineSeconds, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms) || ms <= 0) return false;
  return ms <= 1000 * Math.max(URGENT_SECONDS, (Number(deadlineSeconds) || 0) / 5);
}

/** Whole seconds until `iso` (0 once it has passed). */
export function secondsLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  return Number.isNaN(ms) || ms <= 0 ? 0 : Math.ceil(ms / 1000);
}

export function timeLeft(iso, now = Date.now()) {
  if (Number.isNaN(Date.parse(iso))) return "";
  const left = clock(iso, now);
  return left ? t("{clock} left", { clock: left }) : t("time is up");
}

function tick() {
  for (const el of document.querySelectorAll("time.countdown")) {
    el.textContent = timeLeft(el.getAttribute("datetime"));
  }
}
if (typeof document !== "undefined") {
  tick();
  setInterval(tick, 1000);
}
