// The match page: renders the state, sends moves to the JSON API, follows the SSE
// stream. All text is set with textContent, never as HTML.
import { applyEvent } from "./match-state.js";
import { timeLeft } from "./countdowns.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
let state = JSON.parse(document.getElementById("initial-state").textContent);
// Per seat: the profile its name links to, a bot's strength once the match is over.
// Kept beside the state (no live event carries them) and asked for again when they
// can change: a seat taken or freed, the match over, a resync.
let seatLinks = JSON.parse(document.getElementById("seat-links").textContent).seats;
let selected = new Set(); // Classic: tiles picked towards a cover
let busy = false;
let awaitedSeq = 0; // the seq our last move's response reported; events catch up to it
let lastDead = null; // {seat, dice, n} of the latest throw that reached nothing
const logEl = document.getElementById("log");
let pendingLi = null; // the log line of a throw whose cover is still to come
const $ = (id) => document.getElementById(id);

function seatName(i) {
  const s = state.seats[i];
  if (!s) return `Seat ${i + 1}`;
  return s.you ? "You" : (s.name || `Seat ${i + 1}`);
}
function isYou(i) { return Boolean(state.seats[i] && state.seats[i].you); }
function mySeat() { return state.seats.findIndex((s) => s.you); }
function myTurn() {
  return state.status === "playing" && state.turn !== null && state.turn.seat === mySeat();
}
function diceText(d) { return d.length === 1 ? `${d[0]}` : `${d[0]} and ${d[1]}`; }
function optText(o) { return o.join(" + "); }

// -- the log -------------------------------------------------------------------
function addLog(text, cls) {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  logEl.prepend(li);
  return li;
}

function scoreLine(seat, score, total) {
  return addLog(`${seatName(seat)} ${isYou(seat) ? "score" : "scores"} ${score} this turn (total ${total})`, "score");
}
function jackpotLine(seat, throws) {
  return addLog(`${seatName(seat)} shut the box in ${throws} throws: a jackpot!`, "jackpot");
}

// The log after a (re)load, rebuilt from the record: the same lines the live events
// give, turn scores and jackpots included, so a reload does not lose them.
function logFromRecord(rec) {
  logEl.textContent = "";
  pendingLi = null;
  const totals = rec.seats.map(() => 0);
  let turnSeat = null; // the seat whose turn is under way
  let open = new Set();
  let throws = 0;
  for (const e of rec.events) {
    if (e.type === "out") {
      addLog(`${seatName(e.seat)} ${e.reason === "timeout" ? "ran out of time" : "resigned"}`, "out");
      if (e.seat === turnSeat) turnSeat = null;
      continue;
    }
    if (e.seat !== turnSeat) {
      turnSeat = e.seat;
      open = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      throws = 0;
    }
    throws += 1;
    if (e.cover === null) {
      pendingLi = addLog(`${seatName(e.seat)} threw ${diceText(e.dice)}`);
    } else if (e.cover.length === 0) {
      addLog(`${seatName(e.seat)} threw ${diceText(e.dice)}: nothing reachable, turn passes`, "dead");
      const score = [...open].reduce((a, b) => a + b, 0);
      totals[e.seat] += score;
      scoreLine(e.seat, score, totals[e.seat]);
      turnSeat = null;
    } else {
      addLog(`${seatName(e.seat)} threw ${diceText(e.dice)} and covered ${optText(e.cover)}`);
      e.cover.forEach((n) => open.delete(n));
      if (open.size === 0) { jackpotLine(e.seat, throws); turnSeat = null; }
    }
  }
  if (rec.result) addLog("The match is over");
}

function logEvent(ev) {
  switch (ev.type) {
    case "thrown":
      if (ev.options.length === 0) {
        addLog(`${seatName(ev.seat)} threw ${diceText(ev.dice)}: nothing reachable, turn passes`, "dead");
        lastDead = { seat: ev.seat, dice: ev.dice, n: ev.n };
      } else {
        lastDead = null;
        pendingLi = addLog(`${seatName(ev.seat)} threw ${diceText(ev.dice)}`);
      }
      break;
    case "covered": {
      const text = `${seatName(ev.seat)} threw ${diceText(state.turn ? (state.turn.dice || []) : [])} and covered ${optText(ev.tiles)}`;
      if (pendingLi) pendingLi.textContent = text; else addLog(text);
      pendingLi = null;
      break;
    }
    case "turn_ended":
      if (ev.shut) jackpotLine(ev.seat, ev.throws);
      else scoreLine(ev.seat, ev.score, ev.total);
      break;
    case "seat_out":
      addLog(`${seatName(ev.seat)} ${ev.reason === "timeout" ? `ran out of time and ${isYou(ev.seat) ? "are" : "is"} out` : "resigned"}`, "out");
      break;
    case "joined": addLog(`${ev.name} took seat ${ev.seat + 1}`); break;
    case "started": addLog("Every seat is taken: the match starts"); break;
    case "match_ended": addLog("The match is over"); break;
    default: break;
  }
}

// -- rendering -----------------------------------------------------------------
// A seat's name, a link to the player's profile where there is one to open.
function seatNameEl(s, links) {
  const el = document.createElement("span");
  el.className = "name";
  if (s.name && links.profile) {
    const a = document.createElement("a");
    a.href = `/players/${encodeURIComponent(links.profile)}`;
    a.textContent = s.name;
    el.append(a);
  } else {
    el.textContent = s.name || "free seat";
  }
  if (s.you) el.append(" (you)");
  return el;
}

const STRENGTHS = {
  lowest: "always covers the lowest tile it can",
  highest: "always covers the highest tile it can",
  best: "plays the best move, worked out exactly",
};
// The bot's strength is drawn from the seed, so it stays secret until the end (a
// match called off before the start never drew one).
function botBadge(strength) {
  const b = document.createElement("span");
  b.className = "badge";
  if (strength) {
    b.textContent = `strength: ${strength}`;
    b.title = `This bot ${STRENGTHS[strength] || `plays at strength ${strength}`}.`;
  } else if (state.status !== "finished") {
    b.textContent = "strength: secret";
    b.title = "A computer player. Its strength comes from the match's seed and is shown when the match ends.";
  } else {
    b.textContent = "bot";
    b.title = "A computer player.";
  }
  return b;
}

async function refreshSeatLinks() {
  try {
    const resp = await fetch(`/api/matches/${matchId}/seats`, { credentials: "same-origin" });
    if (resp.ok) { seatLinks = (await resp.json()).seats; render(); }
  } catch (err) { /* names stay as they were; play is unaffected */ }
}

function render() {
  // Exposed for tests and assistive tooling: is the page settled after our last move?
  root.dataset.seq = String(state.seq);
  root.dataset.status = state.status; // the board dims once the match is over
  root.dataset.settled = !busy && state.seq >= awaitedSeq ? "1" : "0";
  $("round").textContent = state.status === "waiting" ? "Waiting for players" : `Round ${state.round}`;
  const seatsEl = $("seats");
  seatsEl.textContent = "";
  state.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.className = "seat";
    if (state.turn && state.turn.seat === i) li.classList.add("current");
    if (s.you) li.classList.add("you");
    if (s.out) li.classList.add("out");
    const total = document.createElement("span");
    total.className = "total";
    total.textContent = s.name ? `${s.total}` : "";
    total.title = "running total";
    li.append(seatNameEl(s, seatLinks[i] || {}), total);
    if (s.bot) li.append(botBadge((seatLinks[i] || {}).strength));
    if (s.out) {
      const o = document.createElement("span");
      o.className = "out-tag";
      o.textContent = s.out === "timeout" ? "out: time" : "resigned";
      li.append(o);
    }
    seatsEl.append(li);
  });

  const t = state.turn;
  const mine = myTurn();
  const open = t ? t.open : [];
  const offeredTiles = new Set(t ? t.options.flat() : []);
  for (const btn of document.querySelectorAll(".tile")) {
    const n = Number(btn.dataset.tile);
    const isOpen = t ? open.includes(n) : true;
    btn.classList.toggle("covered", !isOpen);
    const offered = mine && t.dice !== null && offeredTiles.has(n);
    btn.classList.toggle("offered", offered);
    btn.classList.toggle("selected", selected.has(n));
    btn.disabled = !offered;
    btn.setAttribute("aria-label", `tile ${n}${isOpen ? "" : ", covered"}${offered ? ", on offer" : ""}`);
  }

  const diceEl = $("dice");
  diceEl.textContent = "";
  // After a dead throw the turn has already passed; keep its dice in view, dimmed.
  const shown = t && t.dice ? t.dice : (lastDead ? lastDead.dice : []);
  shown.forEach((d) => {
    const span = document.createElement("span");
    span.className = t && t.dice ? "die" : "die dead";
    span.textContent = d;
    span.setAttribute("aria-label", `die showing ${d}`);
    diceEl.append(span);
  });

  // Spectators and finished matches get no Throw button at all.
  document.querySelector(".controls").hidden = mySeat() < 0 || state.status === "finished";
  const throwBtn = $("throw");
  const canThrow = mine && t.dice === null && !busy;
  throwBtn.disabled = !canThrow;
  throwBtn.textContent = t && t.one_die ? "Throw two dice" : "Throw";
  const one = $("throw-one");
  one.hidden = !(mine && t.one_die);
  one.disabled = !canThrow;

  const optEl = $("options");
  optEl.textContent = "";
  if (mine && t.dice !== null && state.variant === "classic") {
    const label = document.createElement("span");
    label.textContent = "Cover: ";
    optEl.append(label);
    for (const o of t.options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option";
      b.textContent = optText(o);
      b.addEventListener("click", () => cover(o));
      optEl.append(b);
    }
  }

  $("status").textContent = statusText();
  $("notice").textContent = lastDead && state.status !== "waiting"
    ? `${lastDead.seat === mySeat() ? "You" : seatName(lastDead.seat)} threw ${diceText(lastDead.dice)}: nothing reachable is open, so the turn passes.`
    : "";
  $("resign-box").hidden = !(mySeat() >= 0 && state.status !== "finished" && !state.seats[mySeat()].out);
  // Before the start, leaving frees the seat (the creator's calls the match off).
  const waiting = state.status === "waiting";
  $("resign").textContent = waiting ? (mySeat() === 0 ? "Call the match off" : "Leave this match") : "Resign";
  $("resign-yes").textContent = waiting ? "Yes, leave" : "Yes, resign";
  renderDeadline();
  renderResult();
  document.title = (mine ? "(Your throw) " : "") + `${state.variant === "classic" ? "Classic" : "Jackpot"} match · peer2peergames`;
}

function statusText() {
  const t = state.turn;
  if (state.status === "waiting") {
    const free = state.seats.filter((s) => !s.name).length;
    return `Waiting for ${free} more player${free === 1 ? "" : "s"}. Share this page's address to invite someone.`;
  }
  if (state.status === "finished") return "";
  if (!t) return "";
  if (myTurn()) {
    if (t.dice === null && t.one_die) return "Your throw. The 7, 8 and 9 are covered, so you may throw one die or two. Space throws two.";
    if (t.dice === null) return "Your throw. Press Throw (or Space).";
    if (state.variant === "classic") {
      return `You threw ${diceText(t.dice)} (total ${t.dice.reduce((a, b) => a + b, 0)}). Pick tiles adding up to it, or choose a set below.`;
    }
    return `You threw ${diceText(t.dice)}. Cover one of: ${t.options.map(optText).join(", ")}.`;
  }
  const who = seatName(t.seat);
  return t.dice === null ? `${who} to throw.` : `${who} threw ${diceText(t.dice)} and is choosing.`;
}

function renderDeadline() {
  const t = state.turn;
  const el = $("deadline");
  if (!t || !t.due_at || state.status !== "playing") { el.textContent = ""; return; }
  el.textContent = `${myTurn() ? "You have" : seatName(t.seat) + " has"} ${timeLeft(t.due_at)}`.replace("has time is up", ": time is up").replace("have time is up", ": time is up");
}

function renderResult() {
  const el = $("result");
  if (state.status !== "finished" || !state.result) { el.hidden = state.status !== "finished"; if (state.status === "finished" && !state.result) el.textContent = "This match was called off before it started."; return; }
  el.hidden = false;
  el.textContent = "";
  const r = state.result;
  const h = document.createElement("h2");
  const me = mySeat();
  const practice = state.seats.length === 1;
  if (practice) h.textContent = r.shut[0] !== null ? `Practice over: you shut the box in ${r.shut[0]} throws!` : `Practice over: you scored ${r.totals[0]}`;
  else if (r.winners.length === 0) h.textContent = "Match over";
  else if (me >= 0 && r.winners.includes(me)) h.textContent = r.winners.length > 1 ? "A draw: you share the win" : "You win!";
  else h.textContent = r.winners.length > 1 ? `A draw between ${r.winners.map(seatName).join(" and ")}` : `${seatName(r.winners[0])} wins`;
  el.append(h);
  const ol = document.createElement("ol");
  const order = state.seats.map((_, i) => i).sort((a, b) => r.places[a] - r.places[b]);
  for (const i of order) {
    const li = document.createElement("li");
    const shut = r.shut[i] !== null ? `, shut the box in ${r.shut[i]} throws` : "";
    const out = state.seats[i].out === "resigned" ? ", resigned" : state.seats[i].out === "timeout" ? ", ran out of time" : "";
    li.textContent = `Place ${r.places[i]}: ${seatName(i)} (total ${r.totals[i]}${shut}${out})`;
    ol.append(li);
  }
  el.append(ol);
  const p = document.createElement("p");
  p.textContent = `Rounds played: ${r.rounds}. Home: `;
  const a = document.createElement("a");
  a.href = "/";
  a.textContent = "play again";
  p.append(a);
  el.append(p);
  $("server-seed").textContent = state.server_seed || "";
}

// -- actions -------------------------------------------------------------------
async function post(path, body) {
  busy = true;
  $("message").textContent = "";
  render();
  try {
    const resp = await fetch(`/api/matches/${matchId}/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    const data = await resp.json();
    if (!resp.ok) {
      $("message").textContent = data.error ? data.error.message : "That did not work.";
    } else if (data.seq > state.seq) {
      awaitedSeq = data.seq;
      // The stream normally delivers these events first; if it lags, catch up.
      setTimeout(() => { if (state.seq < data.seq) resync(); }, 1500);
    }
  } catch (err) {
    $("message").textContent = "Could not reach the server; check your connection.";
  } finally {
    busy = false;
    selected.clear();
    render();
  }
}
function doThrow(dice) { if (myTurn() && state.turn.dice === null && !busy) post("throw", { dice }); }
function cover(tiles) { if (myTurn() && state.turn.dice !== null && !busy) post("cover", { tiles }); }

function tileClicked(n) {
  if (!myTurn() || state.turn.dice === null) return;
  if (state.variant === "jackpot") { cover([n]); return; }
  if (selected.has(n)) selected.delete(n); else selected.add(n);
  const pick = [...selected].sort((a, b) => a - b);
  const match = state.turn.options.find((o) => o.length === pick.length && o.every((x, i) => x === pick[i]));
  if (match) { cover(match); return; }
  render();
}

document.querySelectorAll(".tile").forEach((b) => b.addEventListener("click", () => tileClicked(Number(b.dataset.tile))));
$("throw").addEventListener("click", () => doThrow(2));
$("throw-one").addEventListener("click", () => doThrow(1));
$("resign").addEventListener("click", () => { $("resign-confirm").hidden = false; $("resign").hidden = true; });
$("resign-no").addEventListener("click", () => { $("resign-confirm").hidden = true; $("resign").hidden = false; });
$("resign-yes").addEventListener("click", () => { $("resign-confirm").hidden = true; $("resign").hidden = false; post("resign"); });
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === " " || e.code === "Space") {
    if (myTurn() && state.turn.dice === null) { e.preventDefault(); doThrow(2); }
  } else if (/^[1-9]$/.test(e.key)) {
    const n = Number(e.key);
    if (myTurn() && state.turn.dice !== null && state.turn.options.flat().includes(n)) { e.preventDefault(); tileClicked(n); }
  } else if (e.key === "Escape") { selected.clear(); render(); }
});

// -- live updates --------------------------------------------------------------
let source = null;
function connect() {
  if (state.status === "finished") return;
  source = new EventSource(`/api/matches/${matchId}/events?last_event_id=${state.seq}`);
  source.addEventListener("match", (msg) => {
    const ev = JSON.parse(msg.data);
    if (ev.seq <= state.seq) return;
    if (ev.seq > state.seq + 1) { resync(); return; }
    // Log covers before applying, while the dice are still in the state.
    logEvent(ev);
    state = applyEvent(state, ev);
    if (ev.type === "match_ended" || ev.type === "cancelled") { source.close(); }
    if (["joined", "left", "match_ended", "cancelled"].includes(ev.type)) refreshSeatLinks();
    if (ev.type === "started" || ev.type === "joined" || ev.type === "left") {
      $("client-seed").textContent = state.client_seed || "fixed when every seat is taken";
      const jf = document.getElementById("join-form");
      if (jf && !state.seats.some((s) => !s.name && !s.bot)) jf.hidden = true;
    }
    render();
  });
}

async function resync() {
  const [st, rec] = await Promise.all([
    fetch(`/api/matches/${matchId}`, { credentials: "same-origin" }).then((r) => r.json()),
    fetch(`/api/matches/${matchId}/record`, { credentials: "same-origin" }).then((r) => r.json()),
  ]);
  if (st.seq >= state.seq) { state = st; logFromRecord(rec); }
  render();
  refreshSeatLinks();
}

async function start() {
  logEl.reversed = true; // newest first, numbered from the first throw
  render();
  try {
    const rec = await (await fetch(`/api/matches/${matchId}/record`, { credentials: "same-origin" })).json();
    logFromRecord(rec);
  } catch (err) { /* the log stays empty; play is unaffected */ }
  connect();
  setInterval(renderDeadline, 1000);
}
start();
