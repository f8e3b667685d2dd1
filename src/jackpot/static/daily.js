// The daily page, live (static/live-section.js): when a board changes (a ping on /api/daily/events, sent by
// web/daily/live.py), the page fetches itself again and puts in the new
// #daily-boards; it fetches too each time the stream (re)connects, so a change made
// while it was away is not missed. Focus on a link or button still there stays on
// it; a screen reader hears the new number of today's entries, politely.
import { tn } from "./i18n.js";
import { followSection } from "./live-section.js";

const boards = document.getElementById("daily-boards");
const status = document.getElementById("daily-status");

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

if (boards) followSection(boards, "/api/daily/events", "daily", swap);
