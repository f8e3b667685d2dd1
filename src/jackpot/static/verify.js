// An independent verifier of `jackpot-record/1` to `/4` (matches and daily entries), for
// the browser and for Node 20.
//
// It trusts nothing the server says: it hashes the published server seed against the
// commitment (and, made of parts, the parts against theirs and against the seed), derives
// the order of play (/2 on), every die and every bot strength from the seeds with
// WebCrypto (HMAC-SHA256), replays the rules move by move (each format by its own rules,
// spare deadlines counted), checks each bot choice with the exact solver and recomputes
// the whole result; a daily entry is then set against par, the best bot on the same dice.
// The first difference is reported in words. Without the server seed (a match in
// progress, a daily entry before its day ends), or without the parts it is made of (a
// tournament's, until it ends), it checks what it can and says what waits.
//
//   const report = await verifyRecord(record);   // record: object or JSON text
//   report.ok, report.checks (sentences), report.problem (null or a sentence), report.summary,
//   report.pending (the seed or its parts not published yet; report.pendingParts: the
//   parts), report.daily (a daily entry against par), report.notes (what the record says
//   that nothing checked depends on: where the match came from, a client seed the server made)

import { botStrength, commitmentOf, orderOfPlay } from "./verify-seeds.js";
import {
  CLIENT_SEED_PART,
  Problem,
  SERVER_SEED,
  Waiting,
  checkShape,
  fail,
  sameList,
} from "./verify-shape.js";
import { parseRecord } from "./verify-json.js";
import { replayEvents } from "./verify-events.js";
import { checkDailyClientSeed, finishDaily } from "./verify-daily.js";
import { byPosition, checkAdditions, checkSeedParts, notesOf } from "./verify-v4.js";
import { V } from "./verify-words.js";
import { TOURNAMENT_FORMAT, verifyTournament as checkTournament } from "./verify-tournament.js";

export { FORMATS } from "./verify-shape.js";
export { TOURNAMENT_FORMAT } from "./verify-tournament.js";
export { pairRound, pointsText, standings, tableSizes, tableTwelfths } from "./swiss.js";

/** A tournament export checked as docs/tournaments.md says, each table's record by
 * verifyRecord: {ok, checks, problem, summary, pending}. */
export function verifyTournament(source) {
  return checkTournament(source, verifyRecord);
}

/** Whether `text` is a tournament export rather than a match record. */
export function isTournament(text) {
  try {
    const data = typeof text === "string" ? JSON.parse(text) : text;
    return Boolean(data) && data.format === TOURNAMENT_FORMAT;
  } catch {
    return false;
  }
}
export { decide } from "./verify-replay.js";
export { dailyClientSeed, dailyPar, versusPar } from "./verify-daily.js";
export {
  botStrength,
  byteStream,
  commitmentOf,
  orderOfPlay,
  positionDice,
  positionLabel,
  seedFromParts,
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

function describeResult(rec, result) {
  const names = result.winners.map((s) => seatName(rec, s));
  if (rec.seats.length === 1) {
    return result.winners.length ? V.soloFinished() : V.soloResigned();
  }
  if (!names.length) return V.nobodyWon();
  if (names.length === 1) return V.won(names[0]);
  return V.drew(names);
}

/** The people's seats in the order they joined (/2 on; /1 in seat order). */
function peopleInJoiningOrder(rec) {
  const nSeats = rec.seats.length;
  const joined = rec.joined ?? [...Array(nSeats).keys()];
  return [...Array(nSeats).keys()].filter((s) => rec.seats[s].bot === null).sort((a, b) => joined[a] - joined[b]);
}

/** The client seed's parts, one for each person in joining order, and the order of play
 * the seeds drew (/2 on; the draw itself only with the seed). */
async function checkSeats(rec, seed, checks) {
  const nSeats = rec.seats.length;
  const humans = rec.seats.filter((s) => s.bot === null).length;
  // /2 on joins the people's parts in the order they took their seats, /1 in seat order.
  const people = peopleInJoiningOrder(rec);
  const parts = rec.client_seed === "" ? [] : rec.client_seed.split(".");
  parts.forEach((part, k) => {
    if (!CLIENT_SEED_PART.test(part)) {
      fail(V.badPart(k + 1, part, k < people.length ? seatName(rec, people[k]) : null));
    }
  });
  // A bots-only match (selfplay) has nobody with a stake in the dice: whoever ran it
  // chose the client seed, and any well-formed one will do.
  if (humans && parts.length !== humans) fail(V.partsCount(parts.length, humans));
  // A person whose seat sent no client seed had one made by the server: the sentence
  // says so instead of claiming that everybody had a hand in the dice.
  const madeFor = people.filter((s) => rec.seats[s].seed_by === "server").map((s) => seatName(rec, s));
  if (madeFor.length) checks.push(V.checkClientSeedServerMade(rec.client_seed, madeFor, madeFor.length));
  else checks.push(V.checkClientSeed(rec.client_seed, humans));
  if (rec.joined === undefined) return;
  // People join first (the creator first), bots after them: a bot with a person's
  // joining index would be a bot moved into a person's place in the draw.
  rec.joined.forEach((index, s) => {
    const person = rec.seats[s].bot === null;
    if (person !== index < humans) {
      const who = seatName(rec, s);
      fail(person ? V.personAfterBots(who) : V.botAmongPeople(who));
    }
  });
  if (seed === null) return;
  const drawn = await orderOfPlay(seed, rec.client_seed, nSeats, humans);
  if (!sameList(rec.joined, drawn)) {
    const [order, want] = [orderNames(rec, rec.joined), orderNames(rec, drawn)];
    fail(humans ? V.orderNotDrawn(order, want) : V.orderNotJoined(order, want));
  }
  checks.push(V.checkOrder(orderNames(rec, rec.joined), humans));
}

/** A match's result against the replay's; the summary when it holds. */
function checkResult(rec, game, seed, info, checks) {
  const claimed = rec.result ?? null;
  if (!game.over) {
    const who = seatName(rec, game.seat);
    if (claimed !== null) fail(V.resultButNotOver(who, game.round, info.pendingOpen));
    if (seed === null) throw new Waiting(V.seedUnpublished());
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
  const nSeats = rec.seats.length;
  const byPlace = [...Array(nSeats).keys()].sort((a, b) => mine.places[a] - mine.places[b]);
  const standings = byPlace.map((s) => V.standing(seatName(rec, s), mine.places[s], mine.totals[s]));
  checks.push(V.checkResult(mine.rounds, standings, game.endedBy));
  if (seed === null) throw new Waiting(V.seedUnpublished());
  const variantName = V.variant(rec.variant);
  return V.verified(variantName, nSeats, info.stats.throws, mine.rounds, describeResult(rec, mine));
}

/**
 * Verify a jackpot-record/1 to /4 (an object, or its JSON text) without trusting the
 * server. Returns {ok, checks, problem, summary, pending, pendingParts, daily, notes}: checks are the sentences
 * of what was checked and held; problem is the first difference found, in words, or null;
 * pending is true when nothing was found wrong but the server seed is not published yet
 * (problem then says what waits for it); daily is a daily entry's result, par and
 * standing against par. The words are in the page's language (verify-words.js), English
 * outside a page.
 */
export async function verifyRecord(record) {
  const checks = [];
  const info = {};
  let notes = [];
  let rec = record;
  try {
    if (typeof rec === "string") rec = parseRecord(rec);
    checkShape(rec);
    checkAdditions(rec);
    notes = notesOf(rec);
    const daily = "daily" in rec;
    const variantName = V.variant(rec.variant);
    checks.push(daily ? V.checkDailyRecord(variantName, rec.daily.date) : V.checkRecord(variantName, rec.seats.length));

    const seed = rec.server_seed ?? null;
    if (seed !== null) {
      if (typeof seed !== "string" || !SERVER_SEED.test(seed)) fail(V.seedNotHex());
      const hash = await commitmentOf(seed);
      if (hash !== rec.commitment) fail(V.seedMismatch(hash, rec.commitment));
      const short = rec.commitment.slice(0, 12);
      checks.push(daily ? V.checkCommitmentDaily(short) : V.checkCommitment(short));
    }
    const partsHidden = await checkSeedParts(rec, seed, peopleInJoiningOrder(rec), checks);
    if (daily) checkDailyClientSeed(rec, checks);
    else await checkSeats(rec, seed, checks);

    const bots = [];
    for (let s = 0; seed !== null && s < rec.seats.length; s++) {
      const bot = rec.seats[s].bot;
      if (bot === null) continue;
      const drawn = await botStrength(seed, rec.client_seed, s);
      if (drawn !== bot) fail(V.strengthNotDrawn(seatName(rec, s), bot, drawn));
      bots.push(V.botStrength(seatName(rec, s), bot));
    }
    if (bots.length) checks.push(V.checkStrengths(bots));

    const game = await replayEvents(rec, seed, info);
    const st = info.stats;
    checks.push(daily ? V.checkDailyThrows(st.throws) : V.checkThrows(st.throws));
    if (seed !== null) checks.push(V.checkDice(st.dice, st.oneDie));
    if (seed !== null && byPosition(rec)) checks.push(V.checkByPosition());
    checks.push(V.checkCovers(st.covers, st.dead));
    if (bots.length) checks.push(V.checkBots(st.botCovers, st.botDice));
    if (game.left.length && !daily) {
      const outs = game.left.map((s) => V.wentOut(seatName(rec, s), game.out[s], game.leftRound[s]));
      checks.push(V.checkOuts(outs));
    }
    if ("spares" in rec) {
      // Bots move at once: only the people's spares are worth listing.
      const used = peopleInJoiningOrder(rec).map((s) => `${seatName(rec, s)} ${info.spares[s] ?? 0}`);
      checks.push(V.checkSpares(rec.spares, used));
    }
    if (daily) {
      const { summary, daily: entry } = await finishDaily(rec, game, seed, checks);
      return { ok: true, checks, problem: null, summary, pending: false, pendingParts: false, daily: entry, notes };
    }
    const summary = checkResult(rec, game, seed, info, checks);
    if (partsHidden) throw new Waiting(V.partsUnpublished(), null, true);
    return { ok: true, checks, problem: null, summary, pending: false, pendingParts: false, daily: null, notes };
  } catch (err) {
    if (err instanceof Waiting) {
      const sentence = err.message.charAt(0).toUpperCase() + err.message.slice(1);
      const summary = V.notYetVerified(sentence);
      return {
        ok: false,
        checks,
        problem: err.message,
        summary,
        pending: true,
        pendingParts: err.parts,
        daily: err.daily,
        notes,
      };
    }
    const problem = err instanceof Problem ? err.message : V.crashed(err && err.message ? err.message : String(err));
    if (info.stats && info.stats.throws) {
      checks.push(V.replayedBefore(info.stats.throws));
    }
    const sentence = problem.charAt(0).toUpperCase() + problem.slice(1);
    return {
      ok: false,
      checks,
      problem,
      summary: V.notVerified(sentence),
      pending: false,
      pendingParts: false,
      daily: null,
      notes,
    };
  }
}
