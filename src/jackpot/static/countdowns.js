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
