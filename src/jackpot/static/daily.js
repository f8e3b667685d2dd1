// The daily page, live: when a board changes (a ping on /api/daily/events, sent by
// web/daily/live.py), the page fetches itself again and puts in the new
// #daily-boards; it fetches too each time the stream (re)connects, so a change made
// while it was away is not missed. Focus on a link or button still there stays on
// it; a screen reader hears the new number of today's entries, politely.
import { tn } from "./i18n.js";

const boards = document.getElementById("daily-boards");
const status = document.getElementById("daily-status");
let busy = false;
let again = false;

/** What identifies a focusable element across two fetches of the page. */
function keyOf(el) {
  if (el.id) return `#${CSS.escape(el.id)}`;
  const href = el.getAttribute("href");
  return href ? `a[href="${CSS.escape(href)}"]` : null;
}

function swap(fresh) {
  const active = document.activeElement;
  const inside = boards.contains(active) && active !== boards;
  const key = inside ? keyOf(active) : null;
  const before = boards.dataset.count;
  boards.replaceChildren(...fresh.childNodes);
  boards.dataset.count = fresh.dataset.count;
  if (inside) ((key && boards.querySelector(key)) || boards).focus();
  if (fresh.dataset.count !== before) {
    const n = Number(fresh.dataset.count);
    status.textContent = tn("{n} entry today", "{n} entries today", n);
  }
}

async function refresh() {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  try {
    const r = await fetch(location.pathname, { headers: { accept: "text/html" }, cache: "no-store" });
    if (r.ok) {
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      const fresh = doc.getElementById("daily-boards");
      if (fresh) swap(fresh);
    }
  } catch {
    // Offline for a moment: the stream's reconnection fetches again.
  } finally {
    busy = false;
    boards.dataset.fetched = String(Number(boards.dataset.fetched || 0) + 1);
  }
  if (again) {
    again = false;
    refresh();
  }
}

if (boards) {
  const stream = new EventSource("/api/daily/events");
  stream.addEventListener("open", refresh);
  stream.addEventListener("daily", refresh);
}
