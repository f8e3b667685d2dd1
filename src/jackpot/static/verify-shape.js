// The record's shape, checked before anything is derived from it: formats, seats, seeds,
// events and result are what verify.js's replay may take for granted afterwards. A
// difference is thrown as a Problem, its sentence in the page's language.

import { orList } from "./i18n.js";
import { STRENGTHS } from "./replay-rules.js";
import { V } from "./verify-words.js";

// /2 is /1 plus "joined": seats listed in the order of play drawn from the seed, and
// joined[p] the joining index of the seat that plays p-th. /3 is /2 played by the rules
// of /3 (Classic's shared place after a shut box), and the format of a daily entry. /4 is
// /3 plus, where they apply, a seed made of parts, a tournament table, spare deadlines
// and a daily deal's dice by position (verify-v4.js).
export const FORMATS = ["jackpot-record/1", "jackpot-record/2", "jackpot-record/3", "jackpot-record/4"];
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
export const DAILY_TURNS = 10;
// A bot's strength before the seed is published: it is drawn from the seed.
const HIDDEN = "hidden";
export const SERVER_SEED = /^[0-9a-f]{64}$/;
export const CLIENT_SEED_PART = /^[A-Za-z0-9_-]{1,64}$/;

// ---------------------------------------------------------------- helpers
// The sentences themselves are in verify-words.js, in the page's language.

export class Problem extends Error {}

export function fail(message) {
  throw new Problem(message);
}

export const isInt = (x) => Number.isInteger(x);
const VARIANTS = ["jackpot", "classic"];

export function sameList(a, b) {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A day of the calendar written YYYY-MM-DD (2026-02-30 is not one). */
export function isDay(text) {
  if (typeof text !== "string" || !DAY.test(text)) return false;
  const when = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(when.getTime()) && when.toISOString().slice(0, 10) === text;
}

/** A daily entry: its deal, one person's seat, no deadline, its result's form. */
function checkDaily(rec) {
  if (rec.format !== FORMATS[2] && rec.format !== FORMATS[3]) fail(V.dailyNotV3(rec.format, orList(FORMATS.slice(2))));
  const d = rec.daily;
  if (d === null || typeof d !== "object" || !isDay(d.date) || d.turns !== DAILY_TURNS) fail(V.badDaily());
  if (rec.seats.length !== 1 || rec.seats[0].bot !== null) fail(V.dailySeats());
  if (rec.deadline_seconds !== null) fail(V.dailyDeadline());
  const r = rec.result;
  if (r === null || r === undefined) return;
  const scores = r.turn_scores;
  const ok =
    typeof r === "object" &&
    Array.isArray(scores) &&
    scores.length === DAILY_TURNS &&
    scores.every((x) => isInt(x) && x >= 0 && x <= 45) &&
    isInt(r.jackpots) &&
    isInt(r.total);
  if (!ok) fail(V.dailyResultShape());
}

// ---------------------------------------------------------------- the record's shape

export function checkShape(rec) {
  if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
    fail(V.notObject());
  }
  if (typeof rec.format !== "string") fail(V.noFormat());
  if (!FORMATS.includes(rec.format)) {
    fail(V.badFormat(rec.format, FORMATS));
  }
  if (!VARIANTS.includes(rec.variant)) {
    fail(V.badVariant(rec.variant));
  }
  if (!Array.isArray(rec.seats) || rec.seats.length < 1 || rec.seats.length > 4) {
    fail(V.badSeats());
  }
  rec.seats.forEach((seat, s) => {
    if (seat === null || typeof seat !== "object" || typeof seat.name !== "string") {
      fail(V.noName(s));
    }
    const hidden = seat.bot === HIDDEN && rec.server_seed === null;
    if (seat.bot !== null && !hidden && !STRENGTHS.includes(seat.bot)) {
      fail(V.badBot(s, seat.bot));
    }
  });
  const n = rec.seats.length;
  if (rec.format !== FORMATS[0]) {
    const j = rec.joined;
    const ok =
      Array.isArray(j) &&
      j.every(isInt) &&
      sameList([...j].sort((a, b) => a - b), [...Array(n).keys()]);
    if (!ok) {
      fail(V.badJoined());
    }
  } else if ("joined" in rec) {
    fail(V.joinedInV1(FORMATS[0], FORMATS[1]));
  }
  if (typeof rec.commitment !== "string" || !SERVER_SEED.test(rec.commitment)) {
    fail(V.badCommitment());
  }
  if (typeof rec.client_seed !== "string") fail(V.noClientSeed());
  if (!Array.isArray(rec.events)) fail(V.noEvents());
  rec.events.forEach((ev, i) => {
    if (ev === null || typeof ev !== "object") fail(V.eventNotObject(i));
    if (ev.type === "throw") {
      if (!isInt(ev.n) || ev.n < 0) fail(V.throwWithoutN(i));
      if (!isInt(ev.seat)) fail(V.throwSeatNaN(ev.n));
      if (!Array.isArray(ev.dice) || ev.dice.length < 1 || ev.dice.length > 2) {
        fail(V.badDiceCount(ev.n));
      }
      if (!ev.dice.every((d) => isInt(d) && d >= 1 && d <= 6)) {
        fail(V.badDiceValues(ev.n, ev.dice));
      }
      if (ev.cover !== null && !(Array.isArray(ev.cover) && ev.cover.every(isInt))) {
        fail(V.badCover(ev.n));
      }
    } else if (ev.type === "spare") {
      // A spare deadline used (jackpot-record/4): only where the match gives spares.
      if (!("spares" in rec)) fail(V.spareWithoutSpares(i));
      if (!isInt(ev.seat)) fail(V.spareWithoutSeat(i));
    } else if (ev.type === "last_round") {
      // A tournament round's time ran out (jackpot-record/4): only at a tournament table.
      if (!("tournament" in rec)) fail(V.lastRoundOutsideTournament(i));
      if (!isInt(ev.round) || ev.round < 1) fail(V.lastRoundWithoutRound(i));
      return;
    } else if (ev.type === "out") {
      if (!isInt(ev.seat)) fail(V.outWithoutSeat(i));
      if (ev.reason !== "resigned" && ev.reason !== "timeout") {
        fail(V.badReason(i, ev.reason));
      }
    } else {
      fail(V.unknownType(i, ev.type));
    }
    if (ev.seat < 0 || ev.seat >= rec.seats.length) {
      fail(V.noSuchSeat(i, ev.seat, rec.seats.length));
    }
  });
  if ("daily" in rec) {
    checkDaily(rec);
    return;
  }
  const r = rec.result;
  if (r !== null && r !== undefined) {
    if (typeof r !== "object" || Array.isArray(r)) fail(V.resultNotObject());
    for (const field of ["totals", "shut", "places", "winners"]) {
      if (!Array.isArray(r[field])) fail(V.resultMissing(field));
    }
    if (!isInt(r.rounds)) fail(V.resultMissing("rounds"));
  }
}

/** Thrown when everything that could be checked without the server seed holds: the
 * rest (the dice, and what comes from the seed) waits for it. */
export class Waiting extends Error {
  constructor(message, daily = null, parts = false) {
    super(message);
    this.daily = daily;
    this.parts = parts; // the seed is published, the parts it is made of not yet
  }
}
