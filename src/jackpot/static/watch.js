// The watch list, kept current: every few seconds (while the tab is shown) the page
// fetches itself again and puts in the new #watch-list (web/watch/routes.py says why
// not the lobby's pings). Focus on a link that is still there stays on it; a screen
// reader hears the new number of matches, politely, when it changes.
import { tn } from "./i18n.js";

const EVERY_MS = 10000;
const list = document.getElementById("watch-list");
const status = document.getElementById("watch-status");
let busy = false;

function swap(fresh) {
  const active = document.activeElement;
  const inside = list.contains(active) && active !== list;
  const href = inside ? active.getAttribute("href") : null;
  const before = list.dataset.count;
  list.replaceChildren(...fresh.childNodes);
  list.dataset.count = fresh.dataset.count;
  if (inside) {
    const same = href && [...list.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === href);
    (same || list).focus();
  }
  if (fresh.dataset.count !== before) {
    const n = Number(fresh.dataset.count);
    status.textContent = tn("{n} match being played", "{n} matches being played", n);
  }
}

async function refresh() {
  if (busy || document.hidden) return;
  busy = true;
  try {
    const r = await fetch(location.pathname, { headers: { accept: "text/html" }, cache: "no-store" });
    if (r.ok) {
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      const fresh = doc.getElementById("watch-list");
      if (fresh) swap(fresh);
    }
  } catch {
    // Offline for a moment: the next round tries again.
  } finally {
    busy = false;
    list.dataset.fetched = String(Number(list.dataset.fetched || 0) + 1);
  }
}

if (list) {
  setInterval(refresh, EVERY_MS);
  document.addEventListener("visibilitychange", refresh);
}
