// What the seeds give, derived again in the browser (and in Node 20) with WebCrypto:
// the commitment, a server seed made of parts, each label's HMAC-SHA256 byte stream, the
// dice (by throw number, or a daily deal's by position), the order of play and the bots'
// strengths. verify.js checks a record against these.

import { STRENGTHS } from "./replay-rules.js";
import { V } from "./verify-words.js";

const DIE_LIMIT = 252; // a kept byte is < 252 = 42 * 6, so b % 6 is uniform
const STRENGTH_LIMIT = 255; // a kept byte is < 255 = 85 * 3, so b % 3 is uniform

const encoder = new TextEncoder();

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new Error(V.noWebCrypto());
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

/**
 * The server seed made of parts (in joining order): SHA-256 of the parts joined by ".",
 * at a tournament table followed by ":r" + round + ":t" + table.
 */
export function seedFromParts(parts, tournament = null) {
  const suffix = tournament ? `:r${tournament.round}:t${tournament.table}` : "";
  return sha256Hex(parts.join(".") + suffix);
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

/** The dice a label's stream gives: kept bytes < 252, b % 6 + 1. */
async function labelDice(serverSeed, label, count) {
  const dice = [];
  for await (const b of byteStream(serverSeed, label)) {
    if (b >= DIE_LIMIT) continue;
    dice.push((b % 6) + 1);
    if (dice.length === count) return dice;
  }
  return dice; // unreachable: the stream is endless
}

/** The dice of throw n (0-based over the whole match). */
export function throwDice(serverSeed, clientSeed, n, count = 2) {
  return labelDice(serverSeed, `${clientSeed}:${n}`, count);
}

/** A daily deal's throw by position: turn t (0-based) facing the open tiles (ascending digits). */
export function positionLabel(clientSeed, turn, openTiles) {
  return `${clientSeed}:${turn}:${[...openTiles].sort((a, b) => a - b).join("")}`;
}

/** The dice of a daily deal by position: whoever faces these open tiles in this turn. */
export function positionDice(serverSeed, clientSeed, turn, openTiles, count = 2) {
  return labelDice(serverSeed, positionLabel(clientSeed, turn, openTiles), count);
}

/**
 * The order of play drawn from the seed: Fisher-Yates over the joining order [0..n-1]
 * with the bytes of `${clientSeed}:seats`, for i = n-1 down to 1 skipping bytes
 * >= 256 - 256 % (i + 1) and swapping positions i and b % (i + 1). Position p holds the
 * joining index of the seat that plays p-th. No person: the joining order is kept.
 */
export async function orderOfPlay(serverSeed, clientSeed, seats, people = 1) {
  const order = [...Array(seats).keys()];
  if (people === 0) return order;
  const bytes = byteStream(serverSeed, `${clientSeed}:seats`);
  for (let i = seats - 1; i >= 1; i--) {
    const span = i + 1;
    const limit = 256 - (256 % span);
    let b;
    do b = (await bytes.next()).value;
    while (b >= limit);
    const j = b % span;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The strength a bot in this seat plays at: first byte < 255, b % 3. */
export async function botStrength(serverSeed, clientSeed, seat) {
  for await (const b of byteStream(serverSeed, `${clientSeed}:bot:${seat}`)) {
    if (b < STRENGTH_LIMIT) return STRENGTHS[b % 3];
  }
  return null; // unreachable
}
