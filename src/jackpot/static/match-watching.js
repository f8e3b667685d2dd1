// How many watch the match (GET /api/matches/{id}/watching: the open connections of
// readers without a seat, web/play/watchers.py), beside the round. Asked again every
// few seconds while the match is played and the tab is shown; it counts the reader
// too when they are watching.
import { tn } from "./i18n.js";

const EVERY_MS = 15000;

export function setUpWatching(matchId, el, playing) {
  if (!el) return null;
  async function ask() {
    if (document.hidden) return;
    try {
      const resp = await fetch(`/api/matches/${matchId}/watching`, { credentials: "same-origin" });
      if (!resp.ok) return;
      const n = (await resp.json()).watching;
      const words = tn("{n} person watching", "{n} people watching", n);
      el.textContent = n > 0 ? " · " + words : "";
      el.hidden = n === 0;
      el.dataset.count = String(n);
    } catch { /* the next time */ }
  }
  const timer = setInterval(() => { if (playing()) ask(); else clearInterval(timer); }, EVERY_MS);
  return ask; // asked at once, too, each time the page's own connection opens
}
