// The replay of a record's events by the rules, for the verifier (verify.js): the
// running state of a match or a daily entry (whose turn, the open tiles, the totals,
// the throw due) and its result. Kept apart so each file stays short enough to read.

import { FULL } from "./replay-rules.js";
import { V } from "./verify-words.js";

// A daily entry: turn t's throw k is throw number STRIDE * t + k, and a turn not
// finished (given up, or the day closed first) scores UNPLAYED.
export const STRIDE = 16;
export const UNPLAYED = 45;

/**
 * Winners and places once the match is over (the rules page, "Places"). `shared`:
 * the rules of jackpot-record/3 in Classic, where a shut box that ends the match places
 * every other seat still in together, after the winner.
 */
export function decide({ seats, rounds, totals, shut, out, left, shared = false }) {
  const stillIn = [];
  for (let s = 0; s < seats; s++) if (out[s] === null) stillIn.push(s);
  const shutters = stillIn.filter((s) => shut[s] !== null);
  let winners;
  if (seats === 1 || stillIn.length === 1) {
    winners = stillIn;
  } else if (shutters.length) {
    const fewest = Math.min(...shutters.map((s) => shut[s]));
    winners = shutters.filter((s) => shut[s] === fewest);
  } else {
    const lowest = Math.min(...stillIn.map((s) => totals[s]));
    winners = stillIn.filter((s) => totals[s] === lowest);
  }
  // (shut the box that round: fewer throws first), then the lower running total.
  const key = (s) => (shut[s] !== null ? [0, shut[s], totals[s]] : [1, 0, totals[s]]);
  const before = (a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i];
    return false;
  };
  const places = new Array(seats).fill(0);
  for (const s of winners) places[s] = 1;
  const others = stillIn.filter((s) => !winners.includes(s));
  for (const s of others) {
    const ahead = shared && shutters.length ? 0 : others.filter((o) => before(o, s)).length;
    places[s] = winners.length + 1 + ahead;
  }
  [...left].reverse().forEach((s, rank) => {
    places[s] = stillIn.length + 1 + rank;
  });
  return { rounds, totals: [...totals], shut: [...shut], places, winners };
}

/** The result of a daily entry whose finished turns scored `played`. */
export function dailyResult(played, turns) {
  const scores = [...played, ...new Array(turns - played.length).fill(UNPLAYED)];
  return {
    turn_scores: scores,
    jackpots: played.filter((s) => s === 0).length,
    total: scores.reduce((a, b) => a + b, 0),
  };
}

/**
 * The match as the replay sees it, moved only by the record's events. `rules`:
 * { shared } for a /3 match, { turns } for a daily entry (one seat).
 */
export class Replay {
  constructor(variant, seats, name, rules = {}) {
    this.variant = variant;
    this.seats = seats;
    this.name = name; // a seat's name in the report's sentences
    this.shared = Boolean(rules.shared) && variant === "classic";
    this.turns = rules.turns ?? null; // a daily entry's turns, else null
    this.played = []; // a daily entry's finished turns' scores
    this.out = new Array(seats).fill(null);
    this.left = [];
    this.leftRound = new Array(seats).fill(null);
    this.totals = new Array(seats).fill(0);
    this.shut = new Array(seats).fill(null);
    this.round = 1;
    this.lastRound = false; // a tournament round's time ran out: this round is the last
    this.seat = 0;
    this.nextN = 0;
    this.pending = null; // a throw awaiting its cover, when the record says it never got one
    this.result = null;
    this.endedBy = "";
    this.startTurn(0);
  }

  get over() {
    return this.result !== null;
  }

  stillIn() {
    const seats = [];
    for (let s = 0; s < this.seats; s++) if (this.out[s] === null) seats.push(s);
    return seats;
  }

  startTurn(seat) {
    this.seat = seat;
    this.open = FULL;
    this.turnThrows = 0;
  }

  finish(why) {
    this.pending = null;
    this.endedBy = why;
    if (this.turns !== null) {
      this.result = dailyResult(this.played, this.turns);
      return;
    }
    this.result = decide({
      seats: this.seats,
      rounds: this.round,
      totals: this.totals,
      shut: this.shut,
      out: this.out,
      left: this.left,
      shared: this.shared,
    });
  }

  endTurn(score, shut) {
    this.totals[this.seat] += score;
    if (this.turns !== null) {
      this.played.push(score);
      if (this.played.length === this.turns) {
        this.finish(V.endAllTurns(this.turns));
        return;
      }
      this.round += 1;
      this.nextN = STRIDE * this.played.length;
      this.startTurn(0);
      return;
    }
    if (shut) {
      this.shut[this.seat] = this.turnThrows;
      if (this.variant === "classic") {
        this.finish(V.endShutClassic(this.name(this.seat)));
        return;
      }
    }
    this.advance();
  }

  advance() {
    for (let s = this.seat + 1; s < this.seats; s++) {
      if (this.out[s] === null) {
        this.startTurn(s);
        return;
      }
    }
    this.endRound();
  }

  endRound() {
    if (this.variant === "classic") {
      this.finish(V.endClassicRound());
      return;
    }
    const shutters = this.stillIn().filter((s) => this.shut[s] !== null);
    if (shutters.length) {
      this.finish(V.endShutRound(this.round));
      return;
    }
    if (this.lastRound) {
      this.finish(V.endLastRound(this.round));
      return;
    }
    this.round += 1;
    this.shut = new Array(this.seats).fill(null);
    this.startTurn(this.stillIn()[0]);
  }

  goOut(seat, reason) {
    this.out[seat] = reason;
    this.left.push(seat);
    this.leftRound[seat] = this.round;
    if (seat === this.seat) this.pending = null; // the unfinished turn scores nothing
    const stillIn = this.stillIn();
    if (this.turns !== null) {
      this.finish(reason === "timeout" ? V.endDayClosed() : V.endGaveUp());
    } else if (this.seats === 1) {
      this.finish(V.endSoloOut());
    } else if (stillIn.length === 1) {
      this.finish(V.endLastLeft(this.name(stillIn[0])));
    } else if (seat === this.seat) {
      this.advance();
    }
  }
}
