// On every page of the site, for a signed-in player: "(Your throw) " in the tab
// title while a match between people waits for them, and a system notification
// (Notifications API, only if they allow it) once per throw that becomes theirs,
// once per rematch offered, once per challenge made to them and once per challenge
// of theirs accepted (it opens the match). The player's own
// live stream (/api/my/events) says when: each "waiting" event is the whole picture,
// so a reconnect is a fresh start.
import { t } from "./i18n.js";

const PREFIX = t("(Your throw) ");
const SEEN_KEY = "jackpot.notified";
const here = document.getElementById("match");
const hereId = here ? here.dataset.matchId : null;
let waiting = [];

function seen() {
  try { return new Set(JSON.parse(localStorage.getItem(SEEN_KEY) || "[]")); } catch { return new Set(); }
}
function remember(keys) {
  try { localStorage.setItem(SEEN_KEY, JSON.stringify([...keys].slice(-200))); } catch { /* private mode */ }
}

/** Note that the news `key` needs no notification in any tab (the page that made it
 * shows it already: a challenge accepted on the play-now page opens its match). */
export function markSeen(key) {
  const known = seen();
  known.add(key);
  remember(known);
}

// The match page sets its own title for its own match (it knows the moment a
// throw is made, before this stream hears of it), so this adds the prefix only for the
// other matches there, and takes it away only on the other pages.
function applyTitle() {
  const others = waiting.filter((m) => m.id !== hereId);
  const has = document.title.startsWith(PREFIX);
  if (others.length > 0 && !has) document.title = PREFIX + document.title;
  else if (others.length === 0 && has && !hereId) document.title = document.title.slice(PREFIX.length);
}
const titleEl = document.querySelector("title");
if (titleEl) new MutationObserver(applyTitle).observe(titleEl, { childList: true });

function canNotify() { return "Notification" in window && Notification.permission === "granted"; }

function announce(list) {
  const known = seen();
  for (const m of list) {
    const key = `${m.id}@${m.due_at}`;
    if (known.has(key)) continue;
    known.add(key);
    if (!canNotify()) continue;
    if (m.id === hereId && document.visibilityState === "visible") continue;
    const body = m.variant === "classic"
      ? t("Your Classic match is waiting for you.")
      : t("Your Jackpot match is waiting for you.");
    // The push about the same match (static/sw.js) has this tag too: one replaces
    // the other instead of both showing.
    const n = new Notification(t("Your throw"), { body, tag: `jackpot-${m.id}` });
    n.onclick = () => { window.focus(); window.location.href = `/matches/${m.id}`; };
  }
  remember(known);
}

function announceOffers(offers) {
  const known = seen();
  for (const o of offers) {
    const key = `rematch:${o.id}@${o.version}`;
    if (known.has(key)) continue;
    known.add(key);
    if (!canNotify()) continue;
    if (o.id === hereId && document.visibilityState === "visible") continue;
    const body = o.variant === "classic"
      ? t("{name} offers you a rematch of your Classic match.", { name: o.by })
      : t("{name} offers you a rematch of your Jackpot match.", { name: o.by });
    const n = new Notification(t("Rematch offered"), { body, tag: `jackpot-${o.id}` });
    n.onclick = () => { window.focus(); window.location.href = `/matches/${o.id}`; };
  }
  remember(known);
}

// How many pictures the stream has brought (tests wait for the first).
let received = 0;

function listen() {
  const source = new EventSource("/api/my/events");
  source.addEventListener("waiting", (ev) => {
    let data;
    try { data = JSON.parse(ev.data); } catch { return; }
    waiting = data.matches || [];
    received += 1;
    applyTitle();
    announce(waiting);
    announceOffers(data.offers || []);
  });
  // A challenge (web/people/): a notification, unless the play-now page, which lists
  // it, is the one in view.
  source.addEventListener("challenge", (ev) => {
    let data;
    try { data = JSON.parse(ev.data); } catch { return; }
    if (!canNotify()) return;
    if (window.location.pathname === "/play-now" && document.visibilityState === "visible") return;
    const body = t("{name} challenges you to a match.", { name: data.from });
    const n = new Notification(t("A new challenge"), { body, tag: `jackpot-${data.challenge}` });
    n.onclick = () => { window.focus(); window.location.href = "/play-now"; };
  });
  // A challenge accepted: its match has started. The challenger hears it wherever
  // they are, except on the match's own page and on a play-now page in view, which
  // opens the match by itself; a tab whose player accepted it marked it seen.
  source.addEventListener("accepted", (ev) => {
    let data;
    try { data = JSON.parse(ev.data); } catch { return; }
    if (!data.match || data.match === hereId) return;
    const key = `accepted:${data.challenge}`;
    const known = seen();
    if (known.has(key)) return;
    known.add(key);
    remember(known);
    if (window.location.pathname === "/play-now" && document.visibilityState === "visible") return;
    if (!canNotify()) return;
    const n = new Notification(t("Challenge accepted"), {
      body: t("Your match is starting: open it to play."),
      tag: `jackpot-${data.match}`,
    });
    n.onclick = () => { window.focus(); window.location.href = `/matches/${data.match}`; };
  });
}

function offerButton() {
  if (!("Notification" in window) || Notification.permission !== "default") return;
  const who = document.querySelector("header .who");
  if (!who) return;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "link";
  b.id = "notify-me";
  // Named apart from the account page's push switch, which works with the site closed.
  b.textContent = t("Alert me while the site is open");
  b.title = t("While a page of this site is open, show a notification when it becomes your throw. For news when it is closed, turn on push notifications on your account page.");
  b.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    if (answer !== "default") b.remove();
  });
  who.prepend(b);
}

offerButton();
listen();
window.jackpotNotify = { get received() { return received; } };
