// The match page: renders the state, sends moves and follows the match on its live
// connection (match-live.js: a WebSocket, else the JSON API and the SSE stream).
// Other seats' throws and covers are played out one step at a time so a person can
// watch them (match-queue.js), a bot's opening turn too (match-opening.js); meanwhile
// the reader may act on where the match stands once they are shown. The log and the
// final board come from the same events live and after a reload. All text is set
// with textContent, never as HTML.
import { applyEvent } from "./match-state.js";
import { History } from "./match-log.js";
import { W } from "./match-words.js";
import { shownName } from "./i18n.js";
import { play, setUpSoundSwitch } from "./match-sound.js";
import { renderSeats, renderResult, refreshSeatLinks } from "./match-seats.js";
import { Live } from "./match-live.js";
import { announce } from "./announce.js";
import { renderAutoplay, setUpAutoplayNote } from "./match-autoplay.js";
import { renderPicking } from "./match-board.js";
import { setUpKeys } from "./match-keys.js";
import { setUpInvite } from "./match-invite.js";
import { openingSummary, pickSaid, renderDeadline, statusText } from "./match-status.js";
import { EventQueue } from "./match-queue.js";
import { setUpSpeed } from "./match-playback.js";
import { drawBoard, markOpeningSeen, mayOpenWithPlayback, openingPlayback, startOf } from "./match-opening.js";
import { headLine, renderDailyResult, renderScore, renderStanding, setUpShare } from "./match-daily.js";
import { D } from "./match-words-daily.js";
import { Phrases } from "./match-phrases.js";
import { setUpWatching } from "./match-watching.js";
import { renderSeeds } from "./match-seeds.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const $ = (id) => document.getElementById(id);
const loaded = JSON.parse($("initial-state").textContent);
const firstSeq = loaded.seq; // events up to here are history: logged, not replayed
let state = loaded;
let selected = new Set(); // Classic: tiles picked towards a set
let busy = false;
let awaitedSeq = 0; // the seq our last move's answer reported; the page settles there
let seenSeq = 0; // the latest event taken from the stream (applied or queued)

const seatName = (i) => {
  const s = state.seats[i];
  if (!s) return W.seat(i);
  return s.you ? W.you : (shownName(s.name) || W.seat(i));
};
const isYou = (i) => Boolean(state.seats[i] && state.seats[i].you);
const mySeat = () => state.seats.findIndex((s) => s.you);
const solo = () => state.seats.length === 1;
// A phone or tablet: the status names no keys there.
const touchFirst = window.matchMedia("(pointer: coarse)").matches;
const myTurnIn = (s) => s.status === "playing" && s.turn !== null && s.turn.seat === mySeat();
const myTurn = () => myTurnIn(state);
const iAmOut = () => mySeat() >= 0 && Boolean(state.seats[mySeat()].out);
// A daily entry's throws are numbered turn by turn, and it ends by giving up or
// with the day, not by a seat going out.
const history = new History($("log"), state.daily
  ? { seatName, isYou, solo, throwNo: D.throwNo, logOut: D.logOut }
  : { seatName, isYou, solo });
// What the status and board modules ask of the page; they read the state they are given.
const maySit = root.dataset.maySit === "1"; // signed up: a free seat is the reader's to take
const who = { seatName, isYou, mySeat, myTurn, iAmOut, solo, touchFirst, maySit };
// A few words between the players (none in a daily entry or practice alone).
const phrases = $("phrases")
  ? new Phrases(matchId, $("phrases"), { seatName, isYou, mySeat, status: () => state.status })
  : null;
// Live events wait here to be shown one at a time.
const queue = new EventQueue({ apply, render, viewer: mySeat });
// A bot's opening turn may be played out once the history is in: until then, the start.
if (mayOpenWithPlayback(loaded, mySeat())) state = startOf(loaded);
/** Where the match stands once the queued events are shown: what the reader may act on. */
const ahead = () => (queue.length ? queue.ahead(state) : state);

// -- what is on offer ------------------------------------------------------------
function total(d) { return d.reduce((a, b) => a + b, 0); }
function fits(o) { return [...selected].every((s) => o.includes(s)); }
/** The tiles a click may pick now: on offer, and (Classic) still able to complete a set. */
function pickable() {
  const t = state.turn;
  if (!myTurn() || t.dice === null) return new Set();
  if (state.variant !== "classic") return new Set(t.options.flat());
  const ok = new Set(selected);
  for (const o of t.options) if (fits(o)) o.forEach((n) => ok.add(n));
  return ok;
}

// -- rendering -------------------------------------------------------------------
function render() {
  root.dataset.seq = String(state.seq);
  root.dataset.status = state.status;
  root.dataset.settled = !busy && !queue.pumping && queue.length === 0 && state.seq >= awaitedSeq ? "1" : "0";
  const waiting = state.status === "waiting";
  const finished = state.status === "finished";
  // When the lobby gives up, and the invitation: only while waiting.
  for (const id of ["expiry", "invite"]) if ($(id)) $(id).hidden = !waiting;
  $("round").textContent = state.daily ? headLine(state)
    : waiting ? W.waitingHead
    : finished ? (state.result ? W.finishedHead(state.result.rounds) : W.calledOffHead)
    : W.roundHead(state.round);
  renderSeats(state, $("seats"));
  if (phrases) phrases.draw();
  drawBoard(state, history, selected, pickable(), who);
  renderControls();
  const dead = history.lastDead;
  text($("status"), statusText(state, who));
  const deadNow = Boolean(state.turn && state.turn.dice && state.turn.options.length === 0);
  text($("notice"), dead && state.status === "playing" && !deadNow
    ? W.deadNotice(seatName(dead.seat), isYou(dead.seat), dead.dice, solo()) : "");
  if (finished) $("message").textContent = "";
  showDeadline();
  $("finished-links").hidden = !(finished && state.result);
  $("after").hidden = !(finished && state.result); // what next: a new match, rematch, replay
  if (finished && state.server_seed) $("server-seed").textContent = state.server_seed;
  renderSeeds(state, $("seed-makers"));
  if (state.daily) {
    // A daily entry: its score so far, its result and place; the replay (which shows
    // the dice with their odds) once the day has ended and the seed is public.
    renderScore(state, $("daily-score"));
    renderDailyResult(state, $("result"));
    // The place and the share text are the player's own; a visitor (once the day is
    // over anyone may look) sees the result only.
    if (mySeat() < 0) $("after").hidden = true;
    else renderStanding(state, $("daily-after"));
    // The link and its separator: a day's seed comes when the day is over.
    $("replay-part").hidden = !state.server_seed;
    document.title = D.title(myTurn(), state.variant);
    return;
  }
  renderResult(state, $("result"), seatName, mySeat(), historyRead ? history.threw : null);
  document.title = W.title(myTurn(), state.variant);
}

/** The deadline line shows the reader's own clock while others' moves play out (the
 * server starts it once they are shown), never a bot's. */
function showDeadline() {
  const next = ahead();
  renderDeadline(next, { ...who, myTurn: () => myTurnIn(next) }, $("deadline"));
}

/** Set a line's text; an empty line takes no room. */
function text(el, words) {
  el.textContent = words;
  el.hidden = !words;
}

function renderControls() {
  const t = state.turn;
  const mine = myTurn();
  $("controls").hidden = mySeat() < 0 || state.status !== "playing" || iAmOut();
  const canThrow = canThrowNow();
  const throwBtn = $("throw");
  throwBtn.setAttribute("aria-disabled", String(!canThrow));
  throwBtn.textContent = t && t.one_die && mine ? W.throwTwo : W.throwBtn;
  const one = $("throw-one");
  one.hidden = !(mine && t.one_die);
  one.setAttribute("aria-disabled", String(!canThrow));
  const shownSteps = queue.steps();
  $("skip").hidden = !(queue.pumping && shownSteps > 0);
  $("skip").textContent = W.skip(shownSteps);

  renderPicking(mine && t.dice !== null && state.variant === "classic" ? t : null, selected, fits, cover);
  $("resign-box").hidden = !(mySeat() >= 0 && state.status !== "finished" && !iAmOut());
  renderAutoplay(state, mySeat(), iAmOut());
  const waiting = state.status === "waiting";
  const creator = mySeat() === 0;
  const R = state.daily ? D : W; // a daily entry is given up, not resigned
  $("resign").textContent = waiting ? (creator ? W.callOff : W.leave) : R.resign;
  $("resign-question").textContent = waiting ? (creator ? W.callOffQ : W.leaveQ) : R.resignQ;
  $("resign-yes").textContent = waiting ? (creator ? W.callOffYes : W.leaveYes) : R.resignYes;
  $("resign-no").textContent = waiting ? W.keepWaiting : W.keepPlaying;
}

// -- focus and announcements -----------------------------------------------------
/** Focus may be moved for the player only if it is on nothing or on the play itself. */
function focusIsFree() {
  const a = document.activeElement;
  if (!a || a === document.body) return true;
  return ["controls", "board", "options", "picking", "result"].some((id) => $(id).contains(a));
}
function focusTo(el) { if (el && focusIsFree()) el.focus(); }
function focusAfter(ev) {
  if (ev.type === "thrown" && isYou(ev.seat) && ev.options.length) {
    focusTo(document.querySelector(".tile.offered:not(:disabled)"));
  } else if ((ev.type === "covered" && isYou(ev.seat)) || (ev.type === "turn_started" && isYou(ev.seat))) {
    focusTo($("throw"));
  } else if (ev.type === "match_ended") {
    focusTo($("result"));
  }
}

function apply(ev) {
  // A "started" event is logged with the seats in the order of play it draws (as
  // when the log is built from history on load); every other with the names before.
  let said;
  if (ev.type === "started") {
    state = applyEvent(state, ev);
    said = history.add(ev);
  } else {
    said = history.add(ev);
    state = applyEvent(state, ev);
  }
  clearPick(false);
  if (ev.type === "thrown") play("dice");
  if (ev.type === "turn_started" && isYou(ev.seat) && !solo()) play("turn");
  if (["joined", "left", "started", "match_ended", "cancelled"].includes(ev.type)) refreshSeatLinks(matchId, render);
  if (phrases && (ev.type === "match_ended" || ev.type === "cancelled")) phrases.ended(true);
  if (["started", "joined", "left"].includes(ev.type)) {
    $("client-seed").textContent = state.client_seed || W.fixedLater;
    const jf = $("join-form");
    if (jf && !state.seats.some((s) => !s.name && !s.bot)) jf.hidden = true;
  }
  render();
  const heading = $("result").querySelector("h2");
  announce(ev.type === "match_ended" && heading ? heading.textContent : said);
  focusAfter(ev);
}

// -- actions ---------------------------------------------------------------------
async function post(path, body, method = "POST") {
  // Leaving before the start: the page is drawn again for a visitor (the seat form).
  const leaving = path === "resign" && state.status === "waiting";
  busy = true;
  $("message").textContent = "";
  render();
  try {
    let ok;
    let data;
    if (live.canSend() && (path === "throw" || path === "cover")) {
      const reply = await live.send(path, body || {});
      ok = reply.type === "ack";
      data = reply; // an ack has the match's seq after the move, and its events
    } else {
      const resp = await fetch(`/api/matches/${matchId}/${path}`, {
        method,
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body || {}),
        credentials: "same-origin",
      });
      ok = resp.ok;
      data = await resp.json();
    }
    if (!ok) {
      $("message").textContent = data.error ? data.error.message : W.errorGeneric;
    } else if (leaving) {
      location.reload();
    } else if (data.seq > seenSeq) {
      awaitedSeq = Math.max(awaitedSeq, data.seq);
      // The stream normally delivers these events first; if it lags, catch up.
      setTimeout(() => { if (seenSeq < data.seq) resync(); }, 1500);
    }
  } catch (err) {
    $("message").textContent = W.errorNetwork;
  } finally {
    busy = false;
    selected.clear();
    render();
  }
}
// Throw stays usable while others' moves play out: pressing it shows the rest at once,
// then throws.
const canThrowNow = () => { const s = ahead(); return myTurnIn(s) && s.turn.dice === null && !busy; };
async function doThrow(count) {
  const s = ahead();
  if (!canThrowNow() || (count !== 2 && !s.turn.one_die)) return;
  if (queue.length || queue.pumping) {
    busy = true; // one press, one throw
    queue.skip();
    await queue.settled();
    busy = false;
    if (!myTurn() || state.turn.dice !== null) { render(); return; }
  }
  post("throw", { dice: count });
}
function cover(tiles) { if (myTurn() && state.turn.dice !== null && !busy && !queue.pumping) post("cover", { tiles }); }

// Classic: the pick's tiles, running total and what may complete it are said once the
// player pauses, not at every key (a cover that completes it is said instead).
const PICK_SAY_MS = 600;
let pickTimer = null;
function sayPick() {
  clearTimeout(pickTimer);
  pickTimer = setTimeout(() => {
    if (myTurn() && state.turn.dice !== null && !busy) announce(pickSaid(state, selected));
  }, PICK_SAY_MS);
}
/** Put every picked tile back; `say` it when the player did so (Escape, Clear). */
function clearPick(say) {
  selected.clear();
  clearTimeout(pickTimer);
  if (!say) return;
  render();
  sayPick();
}

function tileClicked(n) {
  if (!myTurn() || state.turn.dice === null || busy || queue.pumping) return;
  const t = state.turn;
  $("message").textContent = "";
  if (!t.open.includes(n)) { $("message").textContent = W.notOpen(n); return; }
  if (state.variant === "jackpot") {
    if (t.options.flat().includes(n)) cover([n]);
    else $("message").textContent = W.jackpotPick(t.dice, t.options);
    return;
  }
  if (selected.has(n)) selected.delete(n);
  else if (pickable().has(n)) selected.add(n);
  else {
    $("message").textContent = W.cannotJoin(n, [...selected].sort((a, b) => a - b), total(t.dice));
    return;
  }
  const pick = [...selected].sort((a, b) => a - b);
  const match = t.options.find((o) => o.length === pick.length && o.every((x, i) => x === pick[i]));
  if (match) { clearTimeout(pickTimer); cover(match); return; }
  render();
  sayPick();
  // The tile just picked may no longer be offered (it is "picked"): keep focus in the tiles.
  if (document.activeElement === document.body) focusTo(document.querySelector(`.tile[data-tile='${n}']`));
}

document.querySelectorAll(".tile").forEach((b) => b.addEventListener("click", () => tileClicked(Number(b.dataset.tile))));
$("throw").addEventListener("click", () => doThrow(2));
$("throw-one").addEventListener("click", () => doThrow(1));
$("skip").addEventListener("click", () => { queue.skip(); focusTo($("throw")); });
$("pick-clear").addEventListener("click", () => {
  clearPick(true);
  focusTo(document.querySelector(".tile.offered:not(:disabled)"));
});
$("resign").addEventListener("click", () => { $("resign-confirm").hidden = false; $("resign").hidden = true; $("resign-no").focus(); });
$("resign-no").addEventListener("click", () => { $("resign-confirm").hidden = true; $("resign").hidden = false; $("resign").focus(); });
$("resign-yes").addEventListener("click", () => { $("resign-confirm").hidden = true; $("resign").hidden = false; post("resign"); });
setUpSoundSwitch($("sound"));
setUpSpeed($("speed"));
setUpInvite();
setUpShare();
setUpAutoplayNote($("autoplay-note"), $("autoplay-note-close"), [$("autoplay-throws"), $("autoplay-covers")]);
for (const id of ["autoplay-throws", "autoplay-covers"]) {
  $(id).addEventListener("change", () => post("autoplay", {
    throws: $("autoplay-throws").checked,
    single_covers: $("autoplay-covers").checked,
  }, "PUT"));
}

setUpKeys({
  canThrow: canThrowNow,
  oneDie: () => ahead().turn.one_die,
  canCover: () => myTurn() && state.turn.dice !== null,
  throwDice: doThrow,
  tile: tileClicked,
  hasPick: () => selected.size > 0,
  clearPick: () => clearPick(true),
});

// -- live updates ----------------------------------------------------------------
let wasDown = false;
let askWatching = null; // how many watch: asked again once the connection is open
function connecting(down) {
  $("connection").hidden = !down;
  if (!down && askWatching) askWatching();
  // Back after a loss: what was said meanwhile is not replayed by the stream.
  if (wasDown && !down && phrases) phrases.reload();
  wasDown = down;
}

function take(ev) {
  // A phrase is not one of the match's numbered events: it never waits in the queue.
  if (ev.type === "said") { if (phrases) phrases.heard(ev); return; }
  if (ev.seq <= seenSeq) return;
  if (ev.seq <= firstSeqNow) {
    // History: what happened before this page's state; it builds the log and board.
    seenSeq = ev.seq;
    past.push(ev);
    if (ev.seq === firstSeqNow) opened(past.splice(0));
    return;
  }
  if (ev.seq > seenSeq + 1 && seenSeq >= firstSeqNow) { resync(); return; }
  seenSeq = ev.seq;
  queue.push(ev);
  if (queue.pumping) renderControls(); // more to show: the Skip control says how much
}

let firstSeqNow = firstSeq;
let past = []; // the events before the page's state, until the last of them came
let firstLoad = true;
let historyRead = false; // every event up to the page's state is in the History
/** The history is in: the log and board from it, or, on arrival after a bot's opening
 * turn, that turn played out as if live. */
function opened(events) {
  const replay = firstLoad ? openingPlayback(loaded, events, mySeat()) : null;
  if (firstLoad && !replay) state = loaded;
  firstLoad = false;
  const before = replay ? replay.before : events;
  for (const ev of before) history.add(ev);
  historyRead = true;
  if (replay) {
    state = replay.first;
    markOpeningSeen(matchId);
  }
  render();
  sayOpening(before);
  if (replay) for (const ev of replay.replay) queue.push(ev);
}
// Said once, on opening: a player coming back hears what the others did since their
// move and whose turn it is.
let saidOpening = false;
function sayOpening(events) {
  if (saidOpening) return;
  saidOpening = true;
  const heading = $("result").querySelector("h2");
  announce(openingSummary(state, who, events, heading ? heading.textContent : ""));
}
const live = new Live(matchId, {
  onEvent: take,
  onDown: connecting,
  lastSeq: () => seenSeq,
  over: () => history.over,
});
const connect = (after) => live.connect(after);

async function resync() {
  try {
    const st = await (await fetch(`/api/matches/${matchId}`, { credentials: "same-origin" })).json();
    queue.clear();
    state = st;
    firstSeqNow = st.seq;
    seenSeq = 0;
    past = []; // the history comes again from its start
    historyRead = false;
    history.reset();
    render();
    connect(0);
    refreshSeatLinks(matchId, render);
    if (phrases) phrases.reload();
  } catch { /* the stream's own retry brings us back */ }
}

// A lost network shows at once; the stream resumes from the last event it had.
window.addEventListener("offline", () => { connecting(true); live.close(); });
window.addEventListener("online", () => { if (!history.over) connect(seenSeq); });

render();
connect(0);
if (phrases && loaded.status === "finished") phrases.ended(false);
if (!state.daily && state.seats.length > 1) {
  askWatching = setUpWatching(matchId, $("watching"), () => state.status === "playing");
}
setInterval(showDeadline, 1000);
