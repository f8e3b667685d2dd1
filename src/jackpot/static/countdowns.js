// Turns <time class="countdown" datetime="..."> into a live "time left", in one
// clock style throughout: "2 d 3:04:05 left", "23:59:59 left", "0:04:09 left".
import { t } from "./i18n.js";

/** The time until `iso` as a clock ("2 d 3:04:05", "0:04:09"); "" once it has passed. */
export function clock(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms) || ms <= 0) return "";
  const s = Math.ceil(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  const time = `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
  return d > 0 ? t("{d} d {clock}", { d, clock: time }) : time;
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
