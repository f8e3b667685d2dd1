// An independent verifier of `jackpot-record/1`, for the browser and for Node 20.
//
// It trusts nothing the server says: it hashes the published server seed against the
// commitment, derives every die and every bot strength from the seeds with WebCrypto
// (HMAC-SHA256), replays the rules move by move, checks each bot choice with the exact
// solver and recomputes the whole result. The first difference is reported in words.
//
//   const report = await verifyRecord(record);   // record: object or JSON text
//   report.ok, report.checks (sentences), report.problem (null or a sentence), report.summary

import {
  FULL,
  STRENGTHS,
  botCover,
  botDiceCount,
  describeOptions,
  maskOf,
  mayThrowOneDie,
  options,
  scoreOf,
  tilesOf,
} from "./replay-rules.js";

export {
  FULL,
  expectedScoreMin,
  maskOf,
  options,
  pShutMax,
  tilesOf,
} from "./replay-rules.js";

export const FORMAT = "jackpot-record/1";
const DIE_LIMIT = 252; // a kept byte is < 252 = 42 * 6, so b % 6 is uniform
const STRENGTH_LIMIT = 255; // a kept byte is < 255 = 85 * 3, so b % 3 is uniform
const SERVER_SEED = /^[0-9a-f]{64}$/;
const CLIENT_SEED_PART = /^[A-Za-z0-9_-]{1,64}$/;

const encoder = new TextEncoder();

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new Error("this browser offers no WebCrypto (crypto.subtle); open the page over https");
  }
  return c.subtle;
}

export function toHex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Lowercase hex SHA-256 of a text's bytes. */
export async function sha256Hex(text) {
  return toHex(new Uint8Array(await subtle().digest("SHA-256", encoder.encode(text))));
}

/** The commitment of a server seed: SHA-256 of its 64 ASCII characters. */
export function commitmentOf(serverSeed) {
  return sha256Hex(serverSeed);
}

const keys = new Map();

function hmacKey(serverSeed) {
  let key = keys.get(serverSeed);
  if (!key) {
    // The key is the seed's 64 hex characters as ASCII text, not the 32 bytes they spell.
    key = subtle().importKey(
      "raw",
      encoder.encode(serverSeed),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    keys.set(serverSeed, key);
  }
  return key;
}

/** One 32-byte block of a label's stream: k = 0 is HMAC(L), k >= 1 is HMAC(L + ":" + k). */
export async function streamBlock(serverSeed, label, k = 0) {
  const msg = k === 0 ? label : `${label}:${k}`;
  const sig = await subtle().sign("HMAC", await hmacKey(serverSeed), encoder.encode(msg));
  return new Uint8Array(sig);
}

/** The endless byte stream of a label, block after block. */
export async function* byteStream(serverSeed, label) {
  for (let k = 0; ; k++) yield* await streamBlock(serverSeed, label, k);
}

/** The dice of throw n (0-based over the whole match): kept bytes < 252, b % 6 + 1. */
export async function throwDice(serverSeed, clientSeed, n, count = 2) {
  const dice = [];
  for await (const b of byteStream(serverSeed, `${clientSeed}:${n}`)) {
    if (b >= DIE_LIMIT) continue;
    dice.push((b % 6) + 1);
    if (dice.length === count) return dice;
  }
  return dice; // unreachable: the stream is endless
}

/** The strength a bot in this seat plays at: first byte < 255, b % 3. */
export async function botStrength(serverSeed, clientSeed, seat) {
  for await (const b of byteStream(serverSeed, `${clientSeed}:bot:${seat}`)) {
    if (b < STRENGTH_LIMIT) return STRENGTHS[b % 3];
  }
  return null; // unreachable
}

// ---------------------------------------------------------------- helpers for words

class Problem extends Error {}

function fail(message) {
  throw new Problem(message);
}

const list = (a) => `[${a.join(", ")}]`;
const isInt = (x) => Number.isInteger(x);
const plural = (k, one, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
const VARIANT_NAMES = { jackpot: "Jackpot", classic: "Classic" };

function andList(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function sameList(a, b) {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}

function showValue(v) {
  return JSON.stringify(v);
}

// ---------------------------------------------------------------- the record's shape

function checkShape(rec) {
  if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
    fail("the record is not a JSON object");
  }
  if (rec.format !== FORMAT) {
    fail(`the format is ${showValue(rec.format)}, not "${FORMAT}"`);
  }
  if (!(rec.variant in VARIANT_NAMES)) {
    fail(`the variant is ${showValue(rec.variant)}: it must be "jackpot" or "classic"`);
  }
  if (!Array.isArray(rec.seats) || rec.seats.length < 1 || rec.seats.length > 4) {
    fail("seats must be a list of 1 to 4 seats");
  }
  rec.seats.forEach((seat, s) => {
    if (seat === null || typeof seat !== "object" || typeof seat.name !== "string") {
      fail(`seat ${s} has no name`);
    }
    if (seat.bot !== null && !STRENGTHS.includes(seat.bot)) {
      fail(`seat ${s}'s bot is ${showValue(seat.bot)}: it must be null, "lowest", "highest" or "best"`);
    }
  });
  if (typeof rec.commitment !== "string" || !SERVER_SEED.test(rec.commitment)) {
    fail("the commitment is not 64 lowercase hex characters");
  }
  if (typeof rec.client_seed !== "string") fail("the client seed is missing");
  if (!Array.isArray(rec.events)) fail("events must be a list");
  rec.events.forEach((ev, i) => {
    const where = `event ${i}`;
    if (ev === null || typeof ev !== "object") fail(`${where} is not an object`);
    if (ev.type === "throw") {
      if (!isInt(ev.n) || ev.n < 0) fail(`${where}: a throw needs its number n`);
      if (!isInt(ev.seat)) fail(`throw ${ev.n}: the seat is not a number`);
      if (!Array.isArray(ev.dice) || ev.dice.length < 1 || ev.dice.length > 2) {
        fail(`throw ${ev.n}: dice must be a list of one or two dice`);
      }
      if (!ev.dice.every((d) => isInt(d) && d >= 1 && d <= 6)) {
        fail(`throw ${ev.n}: dice ${showValue(ev.dice)} are not values from 1 to 6`);
      }
      if (ev.cover !== null && !(Array.isArray(ev.cover) && ev.cover.every(isInt))) {
        fail(`throw ${ev.n}: cover must be a list of tiles or null`);
      }
    } else if (ev.type === "out") {
      if (!isInt(ev.seat)) fail(`${where}: an out needs its seat`);
      if (ev.reason !== "resigned" && ev.reason !== "timeout") {
        fail(`${where}: the reason ${showValue(ev.reason)} is neither "resigned" nor "timeout"`);
      }
    } else {
      fail(`${where} has the unknown type ${showValue(ev.type)}`);
    }
    if (ev.seat < 0 || ev.seat >= rec.seats.length) {
      fail(`${where} names seat ${ev.seat}, but the match has ${plural(rec.seats.length, "seat")}`);
    }
  });
  const r = rec.result;
  if (r !== null && r !== undefined) {
    if (typeof r !== "object" || Array.isArray(r)) fail("the result is not an object");
    for (const field of ["totals", "shut", "places", "winners"]) {
      if (!Array.isArray(r[field])) fail(`the result has no list "${field}"`);
    }
    if (!isInt(r.rounds)) fail('the result has no number "rounds"');
  }
}

// ---------------------------------------------------------------- the replay

/** Winners and places once the match is over (the rules page, "Places"). */
export function decide({ seats, rounds, totals, shut, out, left }) {
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
    places[s] = winners.length + 1 + others.filter((o) => before(o, s)).length;
  }
  [...left].reverse().forEach((s, rank) => {
    places[s] = stillIn.length + 1 + rank;
  });
  return { rounds, totals: [...totals], shut: [...shut], places, winners };
}

/** The match as the replay sees it, moved only by the record's events. */
class Replay {
  constructor(variant, seats) {
    this.variant = variant;
    this.seats = seats;
    this.out = new Array(seats).fill(null);
    this.left = [];
    this.leftRound = new Array(seats).fill(null);
    this.totals = new Array(seats).fill(0);
    this.shut = new Array(seats).fill(null);
    this.round = 1;
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
    this.result = decide({
      seats: this.seats,
      rounds: this.round,
      totals: this.totals,
      shut: this.shut,
      out: this.out,
      left: this.left,
    });
  }

  endTurn(score, shut) {
    this.totals[this.seat] += score;
    if (shut) {
      this.shut[this.seat] = this.turnThrows;
      if (this.variant === "classic") {
        this.finish(`seat ${this.seat} shut the box in Classic, which wins at once`);
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
      this.finish("Classic is one round and every seat still in had its turn");
      return;
    }
    const shutters = this.stillIn().filter((s) => this.shut[s] !== null);
    if (shutters.length) {
      this.finish(`the box was shut in round ${this.round} and the round is over`);
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
    if (this.seats === 1) {
      this.finish("the solo seat went out");
    } else if (stillIn.length === 1) {
      this.finish(`only seat ${stillIn[0]} was left in`);
    } else if (seat === this.seat) {
      this.advance();
    }
  }
}

function seatName(rec, s) {
  const name = rec.seats[s].name;
  return name ? `seat ${s} (${name})` : `seat ${s}`;
}

async function replayEvents(rec, info) {
  const { variant, server_seed: seed, client_seed: client, events } = rec;
  const game = new Replay(variant, rec.seats.length);
  const stats = { throws: 0, dice: 0, dead: 0, covers: 0, botCovers: 0, botDice: 0, oneDie: 0 };
  info.game = game;
  info.stats = stats;
  const handled = new Set();

  const applyOut = (ev) => {
    const who = seatName(rec, ev.seat);
    if (game.over) {
      fail(`${who} went out (${ev.reason}) after the match was already over: ${game.endedBy}`);
    }
    if (game.out[ev.seat] !== null) fail(`${who} went out twice`);
    if (ev.reason === "timeout" && ev.seat !== game.seat) {
      // The deadline runs only for the seat whose throw (or cover) is due.
      fail(
        `${who} timed out, but no move of theirs was due: it was ${seatName(rec, game.seat)}'s turn`,
      );
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
    const tag = `throw ${n}`;
    if (game.over) fail(`${tag}: the match was already over (${game.endedBy})`);
    if (game.pending !== null) {
      fail(`${tag}: throw ${game.pending} was never covered, yet play went on`);
    }
    if (n !== game.nextN) {
      fail(`throws are out of order: throw ${game.nextN} was due, the record has throw ${n}`);
    }
    if (ev.seat !== game.seat) {
      fail(
        `${tag}: ${seatName(rec, ev.seat)} threw, but it was ${seatName(rec, game.seat)}'s turn ` +
          `(round ${game.round})`,
      );
    }
    const bot = rec.seats[ev.seat].bot;
    const count = ev.dice.length;
    if (count === 1 && !mayThrowOneDie(variant, game.open)) {
      fail(
        `${tag}: one die was thrown, but one die is allowed only in Classic once 7, 8 and 9 are covered`,
      );
    }
    if (bot !== null) {
      const want = botDiceCount(variant, bot, game.open);
      if (want !== count) {
        fail(`${tag}: ${seatName(rec, ev.seat)}'s ${bot} bot throws ${plural(want, "die", "dice")} here, not ${count}`);
      }
      if (mayThrowOneDie(variant, game.open)) stats.botDice += 1;
    }
    const fair = await throwDice(seed, client, n, count);
    if (!sameList(ev.dice, fair)) {
      fail(`${tag}: dice ${list(ev.dice)} differ from the seed's ${list(fair)}`);
    }
    stats.dice += count;
    if (count === 1) stats.oneDie += 1;
    game.nextN += 1;
    game.turnThrows += 1;
    const opts = options(variant, game.open, ev.dice);
    const offer = `the dice ${andList(ev.dice.map(String))} reach ${describeOptions(opts)} among the open tiles ${list(tilesOf(game.open))}`;

    if (ev.cover === null) {
      if (!opts.length) {
        fail(`${tag}: nothing was on offer, so the turn ended there: cover should be [], not null`);
      }
      game.pending = n;
      stats.throws += 1;
      continue;
    }
    if (ev.cover.length === 0) {
      if (opts.length) fail(`${tag}: marked as a dead throw (cover []), but ${offer}`);
      stats.dead += 1;
      stats.throws += 1;
      game.endTurn(scoreOf(game.open), false);
      continue;
    }
    const cover = [...ev.cover].sort((a, b) => a - b);
    if (!opts.length) {
      fail(`${tag}: cover ${list(ev.cover)}, but ${offer}: it should be a dead throw (cover [])`);
    }
    if (!opts.some((o) => sameList(o, cover))) {
      fail(`${tag}: cover ${list(ev.cover)} is not on offer: ${offer}`);
    }
    if (bot !== null) {
      const choice = botCover(variant, bot, game.open, ev.dice);
      if (!sameList(choice, cover)) {
        fail(
          `${tag}: ${seatName(rec, ev.seat)}'s ${bot} bot covers ${list(choice)} here, ` +
            `not ${list(ev.cover)} (${offer})`,
        );
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
  const names = result.winners.map((s) => rec.seats[s].name || `seat ${s}`);
  if (rec.seats.length === 1) {
    return result.winners.length ? "the solo seat finished" : "the solo seat resigned";
  }
  if (!names.length) return "nobody won";
  if (names.length === 1) return `${names[0]} won`;
  return `${andList(names)} drew for first place`;
}

/**
 * Verify a jackpot-record/1 (an object, or its JSON text) without trusting the server.
 * Returns {ok, checks, problem, summary}: checks are the sentences of what was checked
 * and held; problem is the first difference found, in words, or null.
 */
export async function verifyRecord(record) {
  const checks = [];
  const info = {};
  let problem = null;
  let rec = record;
  try {
    if (typeof rec === "string") {
      try {
        rec = JSON.parse(rec);
      } catch (err) {
        fail(`the record is not valid JSON (${err.message})`);
      }
    }
    checkShape(rec);
    const nSeats = rec.seats.length;
    const variantName = VARIANT_NAMES[rec.variant];
    checks.push(
      `The record is a ${FORMAT} of a ${variantName} match with ${plural(nSeats, "seat")} ` +
        `and ${plural(rec.events.length, "event")}.`,
    );

    const seed = rec.server_seed;
    if (seed === null || seed === undefined) {
      fail(
        "the server seed is not published yet: it is revealed when the match ends, and only then can the throws be checked",
      );
    }
    if (typeof seed !== "string" || !SERVER_SEED.test(seed)) {
      fail("the server seed is not 64 lowercase hex characters");
    }
    const hash = await commitmentOf(seed);
    if (hash !== rec.commitment) {
      fail(
        `the server seed does not match the commitment: its SHA-256 is ${hash}, ` +
          `the commitment shown during the match was ${rec.commitment}`,
      );
    }
    checks.push(
      `The published server seed hashes (SHA-256) to the commitment ${rec.commitment.slice(0, 12)}…, ` +
        "so it was fixed before the first throw.",
    );

    const humans = rec.seats.filter((s) => s.bot === null).length;
    const parts = rec.client_seed === "" ? [] : rec.client_seed.split(".");
    parts.forEach((part, k) => {
      if (!CLIENT_SEED_PART.test(part)) {
        fail(
          `the client seed's part ${k + 1} (${showValue(part)}) is not 1 to 64 letters, digits, "_" or "-"`,
        );
      }
    });
    // A bots-only match (selfplay) has nobody with a stake in the dice: whoever ran it
    // chose the client seed, and any well-formed one will do.
    if (humans && parts.length !== humans) {
      fail(
        `the client seed has ${plural(parts.length, "part")}, but the match has ` +
          `${plural(humans, "human seat")}: there must be one part for each`,
      );
    }
    checks.push(
      humans
        ? `The client seed "${rec.client_seed}" has one well-formed part for each of the ` +
            `${plural(humans, "human seat")}, so the players took part in every throw.`
        : "No seat is human, so anyone could choose the client seed; it is well-formed.",
    );

    const bots = [];
    for (let s = 0; s < nSeats; s++) {
      const bot = rec.seats[s].bot;
      if (bot === null) continue;
      const drawn = await botStrength(seed, rec.client_seed, s);
      if (drawn !== bot) {
        fail(`${seatName(rec, s)} is listed as a ${bot} bot, but the seed draws ${drawn}`);
      }
      bots.push(`seat ${s} ${bot}`);
    }
    if (bots.length) {
      checks.push(`The bots' strengths are the ones the seed draws (${bots.join(", ")}).`);
    }

    const game = await replayEvents(rec, info);
    const st = info.stats;
    checks.push(
      `All ${plural(st.throws, "throw")} are numbered in order from 0 and each was made by the seat whose turn it was.`,
    );
    checks.push(
      `Every one of the ${plural(st.dice, "die", "dice")} is the one the seed gives` +
        (st.oneDie ? ` (${plural(st.oneDie, "one-die throw")}, each allowed where it was made).` : "."),
    );
    checks.push(
      `Every cover (${st.covers}) is a legal option of its throw, and the ${plural(st.dead, "dead throw")} ` +
        "offered nothing to cover.",
    );
    if (bots.length) {
      checks.push(
        `Every bot choice is its strength's: ${plural(st.botCovers, "cover")}` +
          (st.botDice ? ` and ${plural(st.botDice, "choice")} between one die and two.` : "."),
      );
    }
    if (game.left.length) {
      const outs = game.left.map(
        (s) => `${seatName(rec, s)} ${game.out[s] === "timeout" ? "timed out" : "resigned"} in round ${game.leftRound[s]}`,
      );
      checks.push(`The seats that went out were dealt with as the rules say: ${outs.join("; ")}.`);
    }

    const claimed = rec.result ?? null;
    if (!game.over) {
      if (claimed !== null) {
        fail(
          `the record gives a result, but by its events the match is not over: ` +
            `${seatName(rec, game.seat)} is still to ${info.pendingOpen ? "cover" : "throw"} in round ${game.round}`,
        );
      }
      fail(
        `the server seed is published but the match is not over: ${seatName(rec, game.seat)} is still to play in round ${game.round}`,
      );
    }
    if (claimed === null) {
      fail(`the match ended (${game.endedBy}), but the record has no result`);
    }
    const mine = game.result;
    for (const field of ["rounds", "totals", "shut", "places", "winners"]) {
      const theirs = claimed[field];
      const ours = mine[field];
      const same = Array.isArray(ours) ? sameList(theirs, ours) : theirs === ours;
      if (!same) {
        const show = (v) => (Array.isArray(v) ? list(v.map((x) => (x === null ? "null" : x))) : showValue(v));
        fail(`result: ${field} ${show(theirs)} differ from the replay's ${show(ours)}`);
      }
    }
    checks.push(
      `The result recomputed from the throws matches the record: ${plural(mine.rounds, "round")}, ` +
        `totals ${list(mine.totals)}, places ${list(mine.places)}, winners ${list(mine.winners)} ` +
        `(${game.endedBy}).`,
    );
    const summary =
      `Verified: a ${variantName} match of ${plural(nSeats, "seat")}, ${plural(st.throws, "throw")} ` +
      `over ${plural(mine.rounds, "round")}; ${describeResult(rec, mine)}. Every throw came from the committed seed.`;
    return { ok: true, checks, problem: null, summary };
  } catch (err) {
    if (!(err instanceof Problem)) {
      problem = `the verifier could not finish: ${err && err.message ? err.message : String(err)}`;
    } else {
      problem = err.message;
    }
    if (info.stats && info.stats.throws) {
      checks.push(
        `Throws 0 to ${info.stats.throws - 1} replayed without a difference before the problem.`,
      );
    }
    const sentence = problem.charAt(0).toUpperCase() + problem.slice(1);
    return { ok: false, checks, problem, summary: `Not verified: ${sentence}.` };
  }
}
