// The match page's sentences about where the match stands: the status line, the
// deadline line (and its one warning), what is said when the page opens, and a Classic
// pick's running total. Kept apart from match.js, which draws and plays; each function
// takes the state and `who` (seatName, isYou, mySeat, myTurn, iAmOut, solo, touchFirst,
// maySit: the reader could take a free seat).
import { clock, isUrgent, secondsLeft } from "./countdowns.js";
import { W } from "./match-words.js";
import { D } from "./match-words-daily.js";
import { announce } from "./announce.js";

const total = (d) => d.reduce((a, b) => a + b, 0);

/** The status line: whose move it is and what it asks for, or why there is none. */
export function statusText(state, who) {
  const t = state.turn;
  if (state.status === "waiting") {
    const free = state.seats.filter((s) => !s.name).length;
    if (who.mySeat() >= 0) return W.waitingFor(free);
    // A visitor without an account is told by the seat form to sign up, once.
    return who.maySit ? W.waitingSeat(free) : W.waitingOthers(free);
  }
  if (state.status === "finished") return state.result ? "" : W.calledOff;
  if (who.iAmOut()) return W.youAreOut(state.seats[who.mySeat()].out);
  if (!t) return "";
  if (t.dice && t.options.length === 0) {
    // A dead throw on its way out: the turn passes as soon as it has been seen.
    return W.deadNotice(who.seatName(t.seat), who.isYou(t.seat), t.dice, who.solo());
  }
  if (who.myTurn()) {
    if (t.dice === null) {
      if (who.touchFirst) return t.one_die ? W.yourThrowOneDieTouch : W.yourThrowTouch;
      return t.one_die ? W.yourThrowOneDie : W.yourThrow;
    }
    if (state.variant === "classic") return W.classicPick(t.dice, total(t.dice));
    return W.jackpotPick(t.dice, t.options);
  }
  return t.dice === null ? W.toThrow(who.seatName(t.seat)) : W.choosing(who.seatName(t.seat), t.dice);
}

// The deadline whose running out has been announced: said once per move due.
let warnedFor = null;

/** When the clock of a throw due at `dueAt` runs out as the page shows it: the server
 * starts it only once the moves before it have been played out, so until then it
 * stands at the whole deadline. A daily entry has no clock per throw (no deadline
 * seconds): its one time is the day's end. */
export function shownDue(dueAt, deadlineSeconds, now = Date.now()) {
  if (deadlineSeconds === null || deadlineSeconds === undefined) return dueAt;
  const due = Math.min(Date.parse(dueAt), now + 1000 * Number(deadlineSeconds));
  return new Date(due).toISOString();
}

/** The deadline line, counting down; near the end it turns bold and boxed (not colour
 * alone), and the player whose move it is hears it once in the live region. A bot's
 * throw has no clock, and none is shown for it. */
export function renderDeadline(state, who, el) {
  const t = state.turn;
  const show = (words) => { el.textContent = words; el.hidden = !words; };
  const bot = t && state.seats[t.seat] && state.seats[t.seat].bot;
  if (!t || !t.due_at || bot || state.status !== "playing") { show(""); el.classList.remove("urgent"); return; }
  const you = who.myTurn();
  const due = shownDue(t.due_at, state.deadline_seconds);
  const left = clock(due);
  const urgent = isUrgent(due, state.deadline_seconds);
  el.classList.toggle("urgent", urgent);
  if (state.daily) show(left ? D.closesIn(left) : D.closed); // its one clock: the day's end
  else show(left ? W.deadline(you, who.seatName(t.seat), left) : W.timeUp(you, who.seatName(t.seat)));
  if (urgent && you && warnedFor !== t.due_at) {
    warnedFor = t.due_at;
    announce(W.nearlyUp(secondsLeft(due), left));
  }
}

/** A past move as the log words it, or null for events that are no move. */
function moveLine(ev, dice, who) {
  const name = who.seatName(ev.seat);
  const you = who.isYou(ev.seat);
  if (ev.type === "thrown" && ev.options.length === 0) return W.logDead(name, you, ev.dice, who.solo());
  if (ev.type === "covered") return W.logCover(name, you, dice, ev.tiles);
  if (ev.type === "turn_ended") {
    return ev.shut ? W.logJackpot(name, you, ev.throws) : W.logScore(name, you, ev.score, ev.total);
  }
  if (ev.type === "seat_out") return W.logOut(name, you, ev.reason);
  return null;
}

/** How many of the latest moves the summary on opening names. */
export const SUMMARY_MOVES = 4;

/**
 * What a screen reader hears once when the page opens: what happened since the
 * reader's own last move (from the start for a visitor or before their first move),
 * at most the latest few moves, then where the match stands. `past` is the match's
 * events up to the page's state; `result` the heading of the result, if it shows one.
 */
export function openingSummary(state, who, past, result) {
  const me = who.mySeat();
  let from = -1; // after the reader's last throw or cover
  past.forEach((ev, i) => {
    if (me >= 0 && ev.seat === me && (ev.type === "thrown" || ev.type === "covered")) from = i;
  });
  const lines = [];
  let dice = [];
  let throws = 0;
  for (const ev of past.slice(from + 1)) {
    if (ev.type === "thrown") { dice = ev.dice; throws += 1; }
    if (me >= 0 && ev.type === "turn_ended" && ev.seat === me) continue; // the reader knows
    const line = moveLine(ev, dice, who);
    if (line) lines.push(line);
  }
  const said = [];
  if (lines.length) {
    const latest = lines.slice(-SUMMARY_MOVES);
    const more = lines.length > latest.length;
    if (from >= 0) said.push(more ? W.sinceYourMoveLatest(throws, latest) : W.sinceYourMove(latest));
    else said.push(more ? W.soFarLatest(throws, latest) : W.soFar(latest));
  }
  const standing = state.status === "finished" ? result || W.calledOff : statusText(state, who);
  if (standing) said.push(standing);
  return said.join(" ");
}

/** A Classic pick in words: the tiles picked, their running total, and what may still
 * complete a set ("Picked 3 and 4: 7 of 9, 2 still to choose: 2."). */
export function pickSaid(state, picked) {
  const t = state.turn;
  const goal = total(t.dice);
  const tiles = [...picked].sort((a, b) => a - b);
  if (!tiles.length) return W.pickNone(goal);
  const rest = t.options
    .filter((o) => tiles.every((n) => o.includes(n)))
    .map((o) => o.filter((n) => !tiles.includes(n)))
    .filter((o) => o.length);
  const sum = total(tiles);
  return W.pickSay(tiles, sum, goal, goal - sum, rest);
}
