// The match page's sentences about where the match stands: the status line and the
// deadline line (and its one warning). Kept apart from match.js, which draws and plays;
// each function takes the state and `who` (seatName, isYou, mySeat, myTurn, iAmOut,
// solo, touchFirst).
import { clock, isUrgent, secondsLeft } from "./countdowns.js";
import { W } from "./match-words.js";
import { announce } from "./announce.js";

const total = (d) => d.reduce((a, b) => a + b, 0);

/** The status line: whose move it is and what it asks for, or why there is none. */
export function statusText(state, who) {
  const t = state.turn;
  if (state.status === "waiting") {
    const free = state.seats.filter((s) => !s.name).length;
    return who.mySeat() >= 0 ? W.waitingFor(free) : W.waitingSeat(free);
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
/** The deadline line, counting down; near the end it turns bold and boxed (not colour
 * alone), and the player whose move it is hears it once in the live region. */
export function renderDeadline(state, who, el) {
  const t = state.turn;
  const show = (words) => { el.textContent = words; el.hidden = !words; };
  if (!t || !t.due_at || state.status !== "playing") { show(""); el.classList.remove("urgent"); return; }
  const you = who.myTurn();
  const left = clock(t.due_at);
  const urgent = isUrgent(t.due_at, state.deadline_seconds);
  el.classList.toggle("urgent", urgent);
  show(left ? W.deadline(you, who.seatName(t.seat), left) : W.timeUp(you, who.seatName(t.seat)));
  if (urgent && you && warnedFor !== t.due_at) {
    warnedFor = t.due_at;
    announce(W.nearlyUp(secondsLeft(t.due_at), left));
  }
}
