// Turns <time class="countdown" datetime="..."> into a live "time left".
import { t } from "./i18n.js";

export function timeLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return t("time is up");
  const s = Math.ceil(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d > 0) return t("{d} d {h} h left", { d, h });
  if (h > 0) return t("{h} h {m} min left", { h, m });
  if (m > 0) return t("{m} min {s} s left", { m, s: sec });
  return t("{s} s left", { s: sec });
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
