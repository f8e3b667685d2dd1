// The verifier's replay of a record's events (verify.js calls it): each throw checked
// for its number, its seat, its dice count, its dice (when the seed is published) and
// its cover; each bot move (when its strength is known) against its strength's rule;
// each player going out against the rules. A daily entry's throws are numbered turn by
// turn, and a problem in one is named by its turn ("turn 2, throw 1: …"); a deal by
// position takes each throw's dice from its turn and the tiles then open.
//
// A spare deadline changes no die and no position, so of a spare only this is checked:
// a seat never used more than the match gives it, nor one after going out, and went out
// by timeout only with none left. A spare used while a cover was due is listed after
// that cover's throw, which the replay has already covered, so it is not tied to whose
// move the replay says is due (nor to the match still going on).

import { botCover, botDiceCount, maskOf, mayThrowOneDie, options, scoreOf, tilesOf } from "./replay-rules.js";
import { positionDice, throwDice } from "./verify-seeds.js";
import { fail, sameList } from "./verify-shape.js";
import { Replay, STRIDE } from "./verify-replay.js";
import { V } from "./verify-words.js";

/**
 * Replay `rec`'s events; `seed` null checks all but the dice and the bots. Returns the
 * Replay; `info` gets the running game and its tallies, so a failure can say how far
 * the replay went.
 */
export async function replayEvents(rec, seed, info) {
  const { variant, client_seed: client, events } = rec;
  const seatName = (s) => V.who(rec.seats, s);
  const daily = "daily" in rec;
  // /3 and /4 place a Classic shut box's followers together; /1 and /2 rank them.
  const shared = ["jackpot-record/3", "jackpot-record/4"].includes(rec.format);
  const rules = daily ? { turns: rec.daily.turns } : { shared };
  const game = new Replay(variant, rec.seats.length, seatName, rules);
  const stats = { throws: 0, dice: 0, dead: 0, covers: 0, botCovers: 0, botDice: 0, oneDie: 0 };
  const spares = {}; // spare deadlines used, by seat
  const byPosition = daily && rec.daily.dice === "by-position";
  info.game = game;
  info.stats = stats;
  info.spares = spares;
  const handled = new Set();
  // A daily entry names a throw by its turn and its place in it; a match by its number.
  const at = (sentence) => (daily ? V.inTurn(game.round, sentence) : sentence);

  const applyOut = (ev) => {
    const who = seatName(ev.seat);
    if (game.over) {
      fail(daily ? V.outAfterEntry(game.endedBy) : V.outAfterEnd(who, ev.reason, game.endedBy));
    }
    if (game.out[ev.seat] !== null) fail(V.outTwice(who));
    if (ev.reason === "timeout" && ev.seat !== game.seat) {
      // The deadline runs only for the seat whose throw (or cover) is due.
      fail(V.timeoutNotDue(who, seatName(game.seat)));
    }
    const left = (rec.spares ?? 0) - (spares[ev.seat] ?? 0);
    if (ev.reason === "timeout" && left > 0) fail(V.timeoutWithSpare(who, left));
    game.goOut(ev.seat, ev.reason);
  };

  const useSpare = (ev) => {
    const who = seatName(ev.seat);
    if (game.out[ev.seat] !== null) fail(V.spareAfterOut(who));
    spares[ev.seat] = (spares[ev.seat] ?? 0) + 1;
    if (spares[ev.seat] > rec.spares) fail(V.tooManySpares(who, rec.spares));
  };

  for (let i = 0; i < events.length; i++) {
    if (handled.has(i)) continue;
    const ev = events[i];
    if (ev.type === "spare") {
      useSpare(ev);
      continue;
    }
    if (ev.type === "out") {
      applyOut(ev);
      continue;
    }
    if (ev.type === "last_round") {
      // A tournament round's time ran out: the match ends with the round being played.
      if (game.over) fail(V.outAfterEnd(seatName(game.seat), "timeout", game.endedBy));
      if (variant === "classic") fail(V.lastRoundClassic());
      if (game.lastRound) fail(V.lastRoundTwice(game.round));
      if (ev.round !== game.round) fail(V.lastRoundWrong(ev.round, game.round));
      game.lastRound = true;
      continue;
    }
    const n = ev.n;
    // The throw's number as a sentence says it: in a daily entry its place in its turn.
    const k = daily ? game.turnThrows : n;
    if (game.over) fail(daily ? V.throwAfterEntry(game.endedBy) : V.throwAfterEnd(n, game.endedBy));
    if (game.pending !== null) {
      fail(at(V.neverCovered(k, daily ? game.pending % STRIDE : game.pending)));
    }
    if (n !== game.nextN) {
      fail(daily ? at(V.dailyOutOfOrder(k, n, game.nextN)) : V.outOfOrder(game.nextN, n));
    }
    if (ev.seat !== game.seat) {
      fail(V.wrongSeat(n, seatName(ev.seat), seatName(game.seat), game.round));
    }
    const bot = seed === null ? null : rec.seats[ev.seat].bot;
    const count = ev.dice.length;
    if (count === 1 && !mayThrowOneDie(variant, game.open)) {
      fail(at(V.oneDieNotAllowed(k)));
    }
    if (bot !== null) {
      const want = botDiceCount(variant, bot, game.open);
      if (want !== count) {
        fail(V.botDiceCount(n, seatName(ev.seat), bot, want, count));
      }
      if (mayThrowOneDie(variant, game.open)) stats.botDice += 1;
    }
    if (seed !== null) {
      const fair = byPosition
        ? await positionDice(seed, client, game.round - 1, tilesOf(game.open), count)
        : await throwDice(seed, client, n, count);
      if (!sameList(ev.dice, fair)) {
        fail(at(byPosition ? V.unfairPositionDice(k, ev.dice, fair) : V.unfairDice(k, ev.dice, fair)));
      }
    }
    stats.dice += count;
    if (count === 1) stats.oneDie += 1;
    game.nextN += 1;
    game.turnThrows += 1;
    const opts = options(variant, game.open, ev.dice);
    const open = tilesOf(game.open);

    if (ev.cover === null) {
      if (!opts.length) {
        fail(at(V.nullCoverOnDead(k)));
      }
      game.pending = n;
      stats.throws += 1;
      continue;
    }
    if (ev.cover.length === 0) {
      if (opts.length) fail(at(V.notDead(k, ev.dice, opts, open)));
      stats.dead += 1;
      stats.throws += 1;
      game.endTurn(scoreOf(game.open), false);
      continue;
    }
    const cover = [...ev.cover].sort((a, b) => a - b);
    if (!opts.length) {
      fail(at(V.coverOnDead(k, ev.cover, ev.dice, opts, open)));
    }
    if (!opts.some((o) => sameList(o, cover))) {
      fail(at(V.notOnOffer(k, ev.cover, ev.dice, opts, open)));
    }
    if (bot !== null) {
      const choice = botCover(variant, bot, game.open, ev.dice);
      if (!sameList(choice, cover)) {
        fail(V.botCover(n, seatName(ev.seat), bot, choice, ev.cover, ev.dice, opts, open));
      }
      stats.botCovers += 1;
    }
    stats.covers += 1;
    const rest = game.open & ~maskOf(cover);
    if (rest === 0) {
      // A cover that shuts the box may end the match. Other seats' outs listed right
      // after the throw happened between it and its cover (a record keeps the cover with
      // its throw), so they count first, unless that would have left this seat alone,
      // in which case it would have won before covering.
      const outs = [];
      // Only a resignation can come between: a timeout is for the seat whose move is due.
      // (A spare in between is this seat's own deadline, passed while the cover was due.)
      for (let j = i + 1; j < events.length && ["out", "spare"].includes(events[j].type); j++) {
        if (events[j].type === "spare") continue;
        if (events[j].seat === ev.seat || events[j].reason !== "resigned") break;
        outs.push(j);
      }
      const after = game.stillIn().filter((s) => !outs.some((j) => events[j].seat === s));
      if (outs.length && (game.seats === 1 || after.length > 1)) {
        for (const j of outs) {
          applyOut(events[j]);
          handled.add(j);
        }
      }
    }
    game.open = rest;
    stats.throws += 1;
    if (rest === 0) game.endTurn(0, true);
  }
  if (game.pending !== null && !game.over) {
    info.pendingOpen = true;
  }
  return game;
}
