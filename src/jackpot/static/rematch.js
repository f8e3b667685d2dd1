// The rematch box under a finished match between people: offer a rematch, accept
// or decline one, and go to the new match as soon as everyone has accepted. It
// wakes up when match.js shows the result, then asks the server every 2 s while
// an offer is open (the finished match's event stream has ended by then).
//
// The box is rebuilt only when what it says changes, with focus kept on the button
// that had it (or moved to the new one), and each change is said once in the page's
// live region: a rebuild every poll took focus from a keyboard player every 2 s.
//
// The rematch's server seed is fixed before anyone sends a client seed: the one offering
// is shown a pending seed's commitment first (POST /api/commitments) and the offer
// carries it; those accepting are shown the offer's, and each names the one it saw.
import { andList, shownName, t } from "./i18n.js";
import { announce } from "./announce.js";
import { newSeed } from "./client-seed.js";
import { fetchCommitment, remember, withHash } from "./commitment.js";

const root = document.getElementById("match");
const box = document.getElementById("rematch");
const result = document.getElementById("result");
const matchId = root.dataset.matchId;
const POLL_MS = 2000;
let view = null;
let timer = null;
let busy = false;
let shown = null; // what the box shows now, to rebuild it only when that changes
let said = null; // the status last announced
let pending = null; // {commitment, expires_at}: the seed an offer made here would carry
let asking = false;

const seed = newSeed();

function nameOf(seat) {
  if (view.your_seat === seat) return t("you");
  const s = view.seats.find((x) => x.seat === seat);
  return s && s.name ? shownName(s.name) : t("Seat {n}", { n: seat + 1 });
}
function names(seats) {
  return andList(seats.map(nameOf));
}

function button(id, text, onClick, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  if (cls) b.className = cls;
  // Not `disabled` while a request is out: a disabled button drops the focus.
  b.setAttribute("aria-disabled", String(busy));
  b.addEventListener("click", () => { if (!busy) onClick(); });
  return b;
}

/** The commitment the box shows now: the open offer's, or the pending one to offer with. */
function shownCommitment() {
  const o = view && view.offer;
  if (o && o.status === "open") return o.commitment || null;
  return pending ? pending.commitment : null;
}

/** A pending seed for a fresh offer, fetched once it could be made (and again once used). */
function needPending() {
  const o = view && view.offer;
  const offering = view && view.possible && view.your_seat !== null && (!o || o.status === "declined");
  if (!offering || asking || (pending && Date.parse(pending.expires_at) - Date.now() > 60_000)) return;
  asking = true;
  fetchCommitment()
    .then((c) => { pending = c; })
    .catch(() => { pending = null; })
    .finally(() => { asking = false; render(); });
}

function render() {
  needPending();
  const key = JSON.stringify([view, busy, shownCommitment()]);
  if (key === shown) return;
  shown = key;
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  box.textContent = "";
  if (!view || !view.possible || view.your_seat === null) { box.hidden = true; return; }
  box.hidden = false;
  const p = document.createElement("p");
  p.id = "rematch-status";
  const o = view.offer;
  const actions = document.createElement("div");
  actions.className = "controls";
  if (!o || o.status === "declined") {
    if (!o) p.textContent = t("Rematch: the same players, variant and deadline, with new dice.");
    else if (o.declined_by === view.your_seat) p.textContent = t("You said no to the rematch.");
    else p.textContent = t("{name} declined the rematch.", { name: nameOf(o.declined_by) });
    actions.append(button("rematch-offer", o ? t("Offer the same players a rematch again") : t("Offer the same players a rematch"), () => send("")));
  } else if (o.status === "started") {
    p.textContent = t("Everyone accepted: the rematch has started.") + " ";
    const a = document.createElement("a");
    a.href = `/matches/${o.new_match_id}`;
    a.id = "rematch-link";
    a.textContent = t("Go to the rematch");
    p.append(a);
  } else if (o.accepted.includes(view.your_seat)) {
    const waiting = names(o.waiting_for);
    p.textContent =
      o.offered_by === view.your_seat
        ? t("You offered a rematch. Waiting for {names} to accept.", { names: waiting })
        : t("{name} offered a rematch. Waiting for {names} to accept.", { name: nameOf(o.offered_by), names: waiting });
    actions.append(button("rematch-withdraw", t("Withdraw"), () => send("/decline"), "link"));
  } else {
    p.textContent = t("{name} offers a rematch: same seats, variant and deadline, new dice.", { name: nameOf(o.offered_by) });
    actions.append(button("rematch-accept", t("Accept the rematch"), () => send("")));
    actions.append(button("rematch-decline", t("No, thanks"), () => send("/decline")));
  }
  box.append(p, actions);
  const seedNote = document.createElement("p");
  seedNote.className = "hint";
  seedNote.textContent = t("Your client seed for the rematch: {seed}", { seed });
  const fixed = shownCommitment();
  if (fixed && (!o || o.status !== "started")) {
    const note = document.createElement("p");
    note.className = "hint commitment-note";
    note.id = "rematch-commitment";
    const words = t("The server's seed for the rematch is already fixed: its SHA-256 is {hash}.", { hash: "\u0001" });
    withHash(note, words, fixed);
    box.append(note);
  }
  if (!o || o.status !== "started") box.append(seedNote);
  if (focused) {
    const again = focused.id && document.getElementById(focused.id);
    (again || box.querySelector("button, a"))?.focus();
  }
  // The first status, when it only asks whether to play again, comes with the result,
  // which the page announces itself; an offer already made when the page loads is
  // news, and is said; every change after that is said once.
  if (said === null ? Boolean(o) : p.textContent !== said) announce(p.textContent);
  said = p.textContent;
}

// Go to the new match when it starts while this page watches (an old match opened
// later to look at it stays put, with a link to its rematch).
let wasOpen = false;
function follow() {
  const o = view && view.offer;
  if (o && o.status === "started") {
    clearInterval(timer);
    timer = null;
    if (wasOpen) window.location.assign(`/matches/${o.new_match_id}`);
  }
  wasOpen = Boolean(o && o.status === "open");
}

async function load() {
  try {
    const resp = await fetch(`/api/matches/${matchId}/rematch`, { credentials: "same-origin" });
    if (resp.ok) view = await resp.json();
  } catch { return; }
  render();
  follow();
}

async function send(path) {
  busy = true;
  // The seed this offer or acceptance is for: the one on screen.
  const commitment = path ? null : shownCommitment();
  render();
  try {
    const body = path ? {} : { client_seed: seed };
    if (commitment) body.commitment = commitment;
    const resp = await fetch(`/api/matches/${matchId}/rematch${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = await resp.json();
    wasOpen = true; // this player just acted on the offer: follow it if it starts
    if (commitment && pending && commitment === pending.commitment) pending = null; // used, or refused
    if (resp.ok) { view = data; if (commitment) remember(commitment); }
    else await load();
  } catch { /* the next poll shows where things stand */ }
  busy = false;
  render();
  follow();
}

function wake() {
  if (result.hidden || timer !== null) return;
  load();
  timer = setInterval(() => { if (document.visibilityState === "visible") load(); }, POLL_MS);
}

new MutationObserver(wake).observe(result, { attributes: true, attributeFilter: ["hidden"] });
wake();
