// An independent verifier of `jackpot-record/1` and `/2`, for the browser and for Node 20.
//
// It trusts nothing the server says: it hashes the published server seed against the
// commitment, derives the order of play (/2), every die and every bot strength from the
// seeds with WebCrypto (HMAC-SHA256), replays the rules move by move, checks each bot
// choice with the exact solver and recomputes the whole result. The first difference is
// reported in words.
//
//   const report = await verifyRecord(record);   // record: object or JSON text
//   report.ok, report.checks (sentences), report.problem (null or a sentence), report.summary

import {
  botCover,
  botDiceCount,
  maskOf,
  mayThrowOneDie,
  options,
  scoreOf,
  tilesOf,
} from "./replay-rules.js";
import { botStrength, commitmentOf, orderOfPlay, throwDice } from "./verify-seeds.js";
import {
  CLIENT_SEED_PART,
  FORMATS,
  Problem,
  SERVER_SEED,
  checkShape,
  fail,
  sameList,
} from "./verify-shape.js";
import { parseRecord } from "./verify-json.js";
import { Replay } from "./verify-replay.js";
import { V } from "./verify-words.js";

export { FORMATS } from "./verify-shape.js";
export { decide } from "./verify-replay.js";
export {
  botStrength,
  byteStream,
  commitmentOf,
  orderOfPlay,
  sha256Hex,
  streamBlock,
  throwDice,
  toHex,
} from "./verify-seeds.js";
export {
  FULL,
  expectedScoreMin,
  maskOf,
  options,
  pShutMax,
  tilesOf,
} from "./replay-rules.js";

// ---------------------------------------------------------------- the report

function seatName(rec, s) {
  return V.who(rec.seats, s);
}

/** The seats' names in the order of play that `order` gives (each seat's joining index). */
function orderNames(rec, order) {
  return order
    .map((index) => {
      const s = rec.joined.indexOf(index);
      return s < 0 ? String(index + 1) : seatName(rec, s);
    })
    .join(", ");
}

async function replayEvents(rec, info) {
  const { variant, server_seed: seed, client_seed: client, events } = rec;
  const game = new Replay(variant, rec.seats.length, (s) => seatName(rec, s));
  const stats = { throws: 0, dice: 0, dead: 0, covers: 0, botCovers: 0, botDice: 0, oneDie: 0 };
  info.game = game;
  info.stats = stats;
  const handled = new Set();

  const applyOut = (ev) => {
    const who = seatName(rec, ev.seat);
    if (game.over) {
      fail(V.outAfterEnd(who, ev.reason, game.endedBy));
    }
    if (game.out[ev.seat] !== null) fail(V.outTwice(who));
    if (ev.reason === "timeout" && ev.seat !== game.seat) {
      // The deadline runs only for the seat whose throw (or cover) is due.
      fail(V.timeoutNotDue(who, seatName(rec, game.seat)));
    }
    game.goOut(ev.seat, ev.reason);
  };

  for (let i = 0; i < events.length; i++) {
    if (handled.has(i)) continue;
    const ev = events[i];
    if (ev.type === "out") {
      applyOut(ev);
      continue;
    }
    const n = ev.n;
    if (game.over) fail(V.throwAfterEnd(n, game.endedBy));
    if (game.pending !== null) {
      fail(V.neverCovered(n, game.pending));
    }
    if (n !== game.nextN) {
      fail(V.outOfOrder(game.nextN, n));
    }
    if (ev.seat !== game.seat) {
      fail(V.wrongSeat(n, seatName(rec, ev.seat), seatName(rec, game.seat), game.round));
    }
    const bot = rec.seats[ev.seat].bot;
    const count = ev.dice.length;
    if (count === 1 && !mayThrowOneDie(variant, game.open)) {
      fail(V.oneDieNotAllowed(n));
    }
    if (bot !== null) {
      const want = botDiceCount(variant, bot, game.open);
      if (want !== count) {
        fail(V.botDiceCount(n, seatName(rec, ev.seat), bot, want, count));
      }
      if (mayThrowOneDie(variant, game.open)) stats.botDice += 1;
    }
    const fair = await throwDice(seed, client, n, count);
    if (!sameList(ev.dice, fair)) {
      fail(V.unfairDice(n, ev.dice, fair));
    }
    stats.dice += count;
    if (count === 1) stats.oneDie += 1;
    game.nextN += 1;
    game.turnThrows += 1;
    const opts = options(variant, game.open, ev.dice);
    const open = tilesOf(game.open);

    if (ev.cover === null) {
      if (!opts.length) {
        fail(V.nullCoverOnDead(n));
      }
      game.pending = n;
      stats.throws += 1;
      continue;
    }
    if (ev.cover.length === 0) {
      if (opts.length) fail(V.notDead(n, ev.dice, opts, open));
      stats.dead += 1;
      stats.throws += 1;
      game.endTurn(scoreOf(game.open), false);
      continue;
    }
    const cover = [...ev.cover].sort((a, b) => a - b);
    if (!opts.length) {
      fail(V.coverOnDead(n, ev.cover, ev.dice, opts, open));
    }
    if (!opts.some((o) => sameList(o, cover))) {
      fail(V.notOnOffer(n, ev.cover, ev.dice, opts, open));
    }
    if (bot !== null) {
      const choice = botCover(variant, bot, game.open, ev.dice);
      if (!sameList(choice, cover)) {
        fail(V.botCover(n, seatName(rec, ev.seat), bot, choice, ev.cover, ev.dice, opts, open));
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
      for (let j = i + 1; j < events.length && events[j].type === "out"; j++) {
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

function describeResult(rec, result) {
  const names = result.winners.map((s) => seatName(rec, s));
  if (rec.seats.length === 1) {
    return result.winners.length ? V.soloFinished() : V.soloResigned();
  }
  if (!names.length) return V.nobodyWon();
  if (names.length === 1) return V.won(names[0]);
  return V.drew(names);
}

/**
 * Verify a jackpot-record/1 or /2 (an object, or its JSON text) without trusting the
 * server. Returns {ok, checks, problem, summary}: checks are the sentences of what was
 * checked and held; problem is the first difference found, in words, or null. The words
 * are in the page's language (verify-words.js), English outside a page.
 */
export async function verifyRecord(record) {
  const checks = [];
  const info = {};
  let problem = null;
  let rec = record;
  try {
    if (typeof rec === "string") rec = parseRecord(rec);
    checkShape(rec);
    const nSeats = rec.seats.length;
    const variantName = V.variant(rec.variant);
    checks.push(V.checkRecord(variantName, nSeats));

    const seed = rec.server_seed;
    if (seed === null || seed === undefined) fail(V.seedUnpublished());
    if (typeof seed !== "string" || !SERVER_SEED.test(seed)) fail(V.seedNotHex());
    const hash = await commitmentOf(seed);
    if (hash !== rec.commitment) fail(V.seedMismatch(hash, rec.commitment));
    checks.push(V.checkCommitment(rec.commitment.slice(0, 12)));

    const humans = rec.seats.filter((s) => s.bot === null).length;
    // /2 joins the people's parts in the order they took their seats, /1 in seat order.
    const joined = rec.joined ?? [...Array(nSeats).keys()];
    const people = [...Array(nSeats).keys()]
      .filter((s) => rec.seats[s].bot === null)
      .sort((a, b) => joined[a] - joined[b]);
    const parts = rec.client_seed === "" ? [] : rec.client_seed.split(".");
    parts.forEach((part, k) => {
      if (!CLIENT_SEED_PART.test(part)) {
        fail(V.badPart(k + 1, part, k < people.length ? seatName(rec, people[k]) : null));
      }
    });
    // A bots-only match (selfplay) has nobody with a stake in the dice: whoever ran it
    // chose the client seed, and any well-formed one will do.
    if (humans && parts.length !== humans) fail(V.partsCount(parts.length, humans));
    checks.push(V.checkClientSeed(rec.client_seed, humans));

    if (rec.joined !== undefined) {
      // People join first (the creator first), bots after them: a bot with a person's
      // joining index would be a bot moved into a person's place in the draw.
      rec.joined.forEach((index, s) => {
        const person = rec.seats[s].bot === null;
        if (person !== index < humans) {
          const who = seatName(rec, s);
          fail(person ? V.personAfterBots(who) : V.botAmongPeople(who));
        }
      });
      const drawn = await orderOfPlay(seed, rec.client_seed, nSeats, humans);
      if (!sameList(rec.joined, drawn)) {
        const [order, want] = [orderNames(rec, rec.joined), orderNames(rec, drawn)];
        fail(humans ? V.orderNotDrawn(order, want) : V.orderNotJoined(order, want));
      }
      checks.push(V.checkOrder(orderNames(rec, rec.joined), humans));
    }

    const bots = [];
    for (let s = 0; s < nSeats; s++) {
      const bot = rec.seats[s].bot;
      if (bot === null) continue;
      const drawn = await botStrength(seed, rec.client_seed, s);
      if (drawn !== bot) fail(V.strengthNotDrawn(seatName(rec, s), bot, drawn));
      bots.push(V.botStrength(seatName(rec, s), bot));
    }
    if (bots.length) checks.push(V.checkStrengths(bots));

    const game = await replayEvents(rec, info);
    const st = info.stats;
    checks.push(V.checkThrows(st.throws));
    checks.push(V.checkDice(st.dice, st.oneDie));
    checks.push(V.checkCovers(st.covers, st.dead));
    if (bots.length) checks.push(V.checkBots(st.botCovers, st.botDice));
    if (game.left.length) {
      const outs = game.left.map((s) => V.wentOut(seatName(rec, s), game.out[s], game.leftRound[s]));
      checks.push(V.checkOuts(outs));
    }

    const claimed = rec.result ?? null;
    if (!game.over) {
      const who = seatName(rec, game.seat);
      if (claimed !== null) fail(V.resultButNotOver(who, game.round, info.pendingOpen));
      fail(V.notOver(who, game.round));
    }
    if (claimed === null) fail(V.noResult(game.endedBy));
    const mine = game.result;
    for (const field of ["rounds", "totals", "shut", "places", "winners"]) {
      const theirs = claimed[field];
      const ours = mine[field];
      const same = Array.isArray(ours) ? sameList(theirs, ours) : theirs === ours;
      if (!same) fail(V.resultDiffers(rec.seats, field, theirs, ours));
    }
    const byPlace = [...Array(nSeats).keys()].sort((a, b) => mine.places[a] - mine.places[b]);
    const standings = byPlace.map((s) => V.standing(seatName(rec, s), mine.places[s], mine.totals[s]));
    checks.push(V.checkResult(mine.rounds, standings, game.endedBy));
    const summary = V.verified(variantName, nSeats, st.throws, mine.rounds, describeResult(rec, mine));
    return { ok: true, checks, problem: null, summary };
  } catch (err) {
    if (!(err instanceof Problem)) {
      problem = V.crashed(err && err.message ? err.message : String(err));
    } else {
      problem = err.message;
    }
    if (info.stats && info.stats.throws) {
      checks.push(V.replayedBefore(info.stats.throws));
    }
    const sentence = problem.charAt(0).toUpperCase() + problem.slice(1);
    return { ok: false, checks, problem, summary: V.notVerified(sentence) };
  }
}
