// What jackpot-record/4 adds, for the verifier (verify.js): the shape of its additions
// (each only where it applies), a server seed made of parts checked against the parts
// and their commitments, and the notes of what any record may say without it being
// checked (where the match came from, a client seed the server made).

import { commitmentOf, seedFromParts } from "./verify-seeds.js";
import { FORMATS, SERVER_SEED, fail, isInt } from "./verify-shape.js";
import { V } from "./verify-words.js";

const [V3, V4] = [FORMATS[2], FORMATS[3]];
const ADDITIONS = ["parts", "tournament", "spares"];
export const MAX_SPARES = 5;
export const ORIGINS = ["bot", "solo", "people", "play_now", "challenge", "rematch", "daily", "tournament"];
const BY_POSITION = "by-position";

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

/** A daily entry's dice go by position (jackpot-record/4). */
export function byPosition(rec) {
  return isObject(rec.daily) && rec.daily.dice === BY_POSITION;
}

function checkParts(rec) {
  const parts = rec.parts;
  const ok =
    Array.isArray(parts) &&
    parts.length > 0 &&
    parts.every(
      (p) =>
        isObject(p) &&
        typeof p.commitment === "string" &&
        SERVER_SEED.test(p.commitment) &&
        (p.part === null || (typeof p.part === "string" && SERVER_SEED.test(p.part))),
    );
  if (!ok) fail(V.badParts());
  const shown = parts.filter((p) => p.part !== null).length;
  if (shown && (rec.server_seed ?? null) === null) fail(V.partsBeforeSeed());
  if (shown && shown < parts.length) fail(V.partsHalfShown(shown, parts.length));
}

function checkTournament(t) {
  const ok =
    isObject(t) &&
    typeof t.id === "string" &&
    t.id.trim() !== "" &&
    isInt(t.round) &&
    t.round >= 1 &&
    isInt(t.table) &&
    t.table >= 1;
  if (!ok) fail(V.badTournament());
}

/** The keys any record may carry: the origin, and the seats' server-made marks. */
function checkAnyFormat(rec) {
  if ("origin" in rec) {
    const o = rec.origin;
    const ok = isObject(o) && ORIGINS.includes(o.kind) && (o.id === null || (typeof o.id === "string" && o.id.trim() !== ""));
    if (!ok) fail(V.badOrigin());
  }
  rec.seats.forEach((seat, s) => {
    if (!("seed_by" in seat)) return;
    if (seat.seed_by !== "server") fail(V.badSeedBy(s));
    if (seat.bot !== null) fail(V.seedByBot(s));
  });
}

/** After verify-shape.js's checkShape: what /4 adds, each only where it applies. */
export function checkAdditions(rec) {
  checkAnyFormat(rec);
  const daily = "daily" in rec;
  if (rec.format !== V4) {
    for (const key of ADDITIONS) if (key in rec) fail(V.v4FieldInOlder(key, rec.format, V4));
    if (daily && isObject(rec.daily) && "dice" in rec.daily) fail(V.v4FieldInOlder("dice", rec.format, V4));
    return;
  }
  if (daily) {
    if (ADDITIONS.some((key) => key in rec)) fail(V.dailyWithAdditions());
    if (!byPosition(rec)) fail(V.dailyNotByPosition(V4));
    return;
  }
  if ("parts" in rec) checkParts(rec);
  if ("tournament" in rec) {
    checkTournament(rec.tournament);
    if (!("parts" in rec)) fail(V.tournamentWithoutParts());
  }
  if ("spares" in rec && !(isInt(rec.spares) && rec.spares >= 1 && rec.spares <= MAX_SPARES)) fail(V.badSpares());
  if (!("parts" in rec) && !("spares" in rec)) fail(V.v4UsesNothing(V4, V3));
}

/**
 * A server seed made of parts: one part per person (`people`, seat numbers in joining
 * order); each part gives the commitment its person was shown; the parts give the seed.
 * Returns true when the parts are not published yet while the seed is.
 */
export async function checkSeedParts(rec, seed, people, checks) {
  if (!("parts" in rec)) return false;
  const parts = rec.parts;
  if (parts.length !== people.length) fail(V.seedPartsCount(parts.length, people.length));
  const table = rec.tournament ?? null;
  if (parts[0].part === null) {
    checks.push(V.checkPartsHidden(parts.length));
    return seed !== null;
  }
  for (let k = 0; k < parts.length; k++) {
    const hash = await commitmentOf(parts[k].part);
    if (hash !== parts[k].commitment) fail(V.partMismatch(V.who(rec.seats, people[k]), hash, parts[k].commitment));
  }
  const made = await seedFromParts(
    parts.map((p) => p.part),
    table,
  );
  if (made !== seed) {
    fail(table ? V.seedNotFromTableParts(made, seed, table.round, table.table) : V.seedNotFromParts(made, seed));
  }
  checks.push(V.checkParts(parts.length));
  if (table) checks.push(V.checkTable(table.round, table.table));
  return false;
}

/** What the record says that no check depends on, one sentence each. */
export function notesOf(rec) {
  const notes = [];
  if (isObject(rec.origin)) notes.push(V.noteOrigin(rec.origin.kind, rec.origin.id));
  rec.seats.forEach((seat, s) => {
    if (seat.seed_by === "server") notes.push(V.noteSeedByServer(V.who(rec.seats, s)));
  });
  return notes;
}
