// Turns <time class="countdown" datetime="..."> into a live "time left", in one
// clock style throughout: "2 d 3:04:05 left", "23:59:59 left", "0:04:09 left".
import { t } from "./i18n.js";

export function timeLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return t("time is up");
  const s = Math.ceil(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  const clock = `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
  return d > 0 ? t("{d} d {clock} left", { d, clock }) : t("{clock} left", { clock });
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
