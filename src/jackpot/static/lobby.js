// The lobby, live (static/live-section.js): when the open matches change (a ping on /api/lobby/events, sent by
// play/lobby_live.py), the page fetches itself again and puts in the new #lobby-list.
// It fetches too each time the stream (re)connects, so a change made while it was
// away is not missed. Focus on a link that is still there stays on it; a screen
// reader hears the new number of open matches, politely, when it changes.
import { tn } from "./i18n.js";
import { followSection } from "./live-section.js";
import { localTimes } from "./local-times.js";

const list = document.getElementById("lobby-list");
const status = document.getElementById("lobby-status");

function swap(fresh) {
  const active = document.activeElement;
  const inside = list.contains(active) && active !== list;
  const href = inside ? active.getAttribute("href") : null;
  const before = list.dataset.count;
  list.replaceChildren(...fresh.childNodes);
  localTimes(list);
  list.dataset.count = fresh.dataset.count;
  if (inside) {
    const same = href && [...list.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === href);
    (same || list).focus();
  }
  if (fresh.dataset.count !== before) {
    const n = Number(fresh.dataset.count);
    status.textContent = tn("{n} open match", "{n} open matches", n);
  }
}

if (list) followSection(list, "/api/lobby/events", "lobby", swap);
