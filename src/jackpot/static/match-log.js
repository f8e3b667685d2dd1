// The match page's memory of what happened, built from the match's live events only:
// the log a player reads and the board of the latest turn (the final board once the
// match is over). A reload replays the same events from the stream's start, so the
// page after a reload is the page that watched it live.
import { W } from "./match-words.js";

const FULL = [1, 2, 3, 4, 5, 6, 7, 8, 9];

export class History {
  // names: {seatName(i), isYou(i), solo()}, and for a daily entry throwNo(n) and
  // logOut(reason), its own words: read when a line is written.
  constructor(listEl, names) {
    this.el = listEl;
    this.names = names;
    this.reset();
  }

  reset() {
    this.el.textContent = "";
    this.pending = null; // the line of a throw whose cover is still to come
    this.autoThrow = false; // the latest throw was made for the reader by autoplay
    this.board = null; // {seat, open, dice, dead, throws, covered}
    this.lastPlayed = null; // the latest board with a throw on it
    this.lastDead = null; // {seat, dice} of the latest throw that reached nothing
    this.threw = new Set(); // the seats that threw at least once
    this.over = false;
  }

  line(text, cls, n) {
    const li = document.createElement("li");
    if (cls) li.className = cls;
    if (n !== undefined) {
      const num = document.createElement("span");
      num.className = "n";
      num.textContent = (this.names.throwNo || W.throwNo)(n);
      li.append(num, " ");
    }
    li.append(text);
    this.el.prepend(li);
    return li;
  }

  /** A log line with what autoplay made of it for the reader: "(thrown for you)". */
  forYou(text, thrown, covered) {
    const marks = [];
    if (thrown) marks.push(W.thrownForYou);
    if (covered) marks.push(W.coveredForYou);
    return marks.length ? W.madeForYou(text, marks) : text;
  }

  /** Take one event in; returns what a screen reader should hear of it, or "". */
  add(ev) {
    const { seatName, isYou, solo } = this.names;
    const who = ev.seat === undefined ? "" : seatName(ev.seat);
    const you = ev.seat !== undefined && isYou(ev.seat);
    switch (ev.type) {
      case "started": {
        this.board = { seat: 0, open: FULL, dice: null, dead: false, throws: 0, covered: [] };
        // Alone (practice, a daily entry) there is no seat to wait for.
        if (solo()) {
          this.line(W.logStartedAlone, "event");
          return W.logStartedAlone;
        }
        this.line(W.logStarted, "event");
        // Names are those of the state after the start (the page applies a "started"
        // event before logging it), so seat 0 is the first in the order of play.
        if (!ev.joined || ev.joined.length < 2) return W.logStarted;
        const drawn = W.logOrderDrawn(seatName(0), isYou(0));
        this.line(drawn, "event");
        return `${W.logStarted}. ${drawn}.`;
      }
      case "turn_started":
        this.board = { seat: ev.seat, open: FULL, dice: null, dead: false, throws: 0, covered: [] };
        return isYou(ev.seat) ? W.sayYourTurn : W.sayTurn(who);
      case "thrown": {
        const b = this.board || { seat: ev.seat, open: FULL, throws: 0 };
        this.board = { ...b, seat: ev.seat, n: ev.n, dice: ev.dice, dead: ev.options.length === 0, throws: b.throws + 1, covered: [] };
        this.lastPlayed = this.board;
        this.threw.add(ev.seat);
        this.autoThrow = Boolean(ev.auto) && isYou(ev.seat);
        if (ev.options.length === 0) {
          this.lastDead = { seat: ev.seat, dice: ev.dice, n: ev.n };
          this.pending = null;
          this.line(this.forYou(W.logDead(who, you, ev.dice, solo()), this.autoThrow, false), "dead", ev.n);
          // The notice names the dice itself: said once.
          return W.deadNotice(who, you, ev.dice, solo());
        }
        this.lastDead = null;
        this.pending = this.line(this.forYou(W.logThrow(who, you, ev.dice), this.autoThrow, false), "", ev.n);
        this.pendingN = ev.n;
        return W.sayThrow(who, you, ev.dice, ev.options);
      }
      case "covered": {
        const b = this.board;
        const d = b && b.dice ? b.dice : [];
        this.board = { ...b, open: ev.open, covered: ev.tiles };
        this.lastPlayed = this.board;
        if (this.pending && this.pendingN === ev.n) this.pending.remove();
        this.pending = null;
        const autoCover = Boolean(ev.auto) && isYou(ev.seat);
        this.line(this.forYou(W.logCover(who, you, d, ev.tiles), this.autoThrow, autoCover), "", ev.n);
        return W.sayCover(who, you, ev.tiles);
      }
      case "turn_ended":
        if (ev.shut) this.line(W.logJackpot(who, isYou(ev.seat), ev.throws), "jackpot");
        else this.line(W.logScore(who, isYou(ev.seat), ev.score, ev.total), "score");
        return ev.shut ? W.logJackpot(who, isYou(ev.seat), ev.throws) : W.logScore(who, isYou(ev.seat), ev.score, ev.total);
      case "seat_out": {
        const out = this.names.logOut ? this.names.logOut(ev.reason) : W.logOut(who, isYou(ev.seat), ev.reason);
        this.line(out, "out");
        return out;
      }
      case "spare_used": {
        const spare = W.logSpare(who, isYou(ev.seat), ev.left);
        this.line(spare, "spare");
        return spare;
      }
      case "joined":
        this.line(W.logJoined(ev.name), "event");
        return W.logJoined(ev.name);
      case "left":
        this.line(W.logLeft, "event");
        return W.logLeft;
      case "match_ended":
        this.over = true;
        this.line(W.logOver, "event");
        return ""; // the result itself is announced by the page
      case "cancelled":
        this.over = true;
        this.line(W.logCancelled, "event");
        return W.calledOff;
      default:
        return "";
    }
  }

  /** The board to show once the match is over: the last turn that saw a throw. */
  finalBoard() {
    const b = this.board && this.board.throws > 0 ? this.board : this.lastPlayed;
    return b || null;
  }
}
