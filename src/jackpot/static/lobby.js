// The lobby, live: when the open matches change (a ping on /api/lobby/events, sent by
// play/lobby_live.py), the page fetches itself again and puts in the new #lobby-list.
// It fetches too each time the stream (re)connects, so a change made while it was
// away is not missed. Focus on a link that is still there stays on it; a screen
// reader hears the new number of open matches, politely, when it changes.
import { tn } from "./i18n.js";
import { localTimes } from "./local-times.js";

const list = document.getElementById("lobby-list");
const status = document.getElementById("lobby-status");
let busy = false;
let again = false;

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
      const fresh = doc.getElementById("lobby-list");
      if (fresh) swap(fresh);
    }
  } catch {
    // Offline for a moment: the stream's reconnection fetches again.
  } finally {
    busy = false;
    list.dataset.fetched = String(Number(list.dataset.fetched || 0) + 1);
  }
  if (again) {
    again = false;
    refresh();
  }
}

if (list) {
  const stream = new EventSource("/api/lobby/events");
  stream.addEventListener("open", refresh);
  stream.addEventListener("lobby", refresh);
}
