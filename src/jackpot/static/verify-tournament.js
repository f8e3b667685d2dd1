// The Verify page's check of a tournament export (jackpot-tournament/1, docs/tournaments.md):
// every published part against its commitment, every round paired again from the
// standings before it (swiss.js), every table's record verified as any record is
// (verify.js) and checked against its table, every point and the standings added up
// again, and the status. The first difference stops the check, said the way a person
// would look for it. Returns the report the page shows: {ok, checks, problem,
// summary, pending}.
import { t } from "./i18n.js";
import { sha256Hex } from "./verify-seeds.js";
import { pairRound, pointsText, standings, tableTwelfths } from "./swiss.js";

export const TOURNAMENT_FORMAT = "jackpot-tournament/1";

class Difference extends Error {}

function fail(message) {
  throw new Difference(message);
}

function list(value, where) {
  if (!Array.isArray(value)) fail(t("{field} must be a list", { field: where }));
  return value;
}

/** A table's places in joining order, from its record (seats are in order of play). */
function joiningPlaces(record) {
  const places = record.result && record.result.places;
  if (!Array.isArray(places)) return null;
  const joined = Array.isArray(record.joined) ? record.joined : places.map((_, i) => i);
  const out = new Array(places.length);
  joined.forEach((j, seat) => { out[j] = places[seat]; });
  return out;
}

function names(entries, players) {
  return players.map((p) => (entries[p] ? entries[p].name : `#${p}`)).join(", ");
}

/** Verify an export (its JSON text or its object), with `verifyRecord` for each table. */
export async function verifyTournament(source, verifyRecord) {
  const checks = [];
  try {
    const ex = typeof source === "string" ? JSON.parse(source) : source;
    if (!ex || ex.format !== TOURNAMENT_FORMAT) fail(t("format: this is not a {format}", { format: TOURNAMENT_FORMAT }));
    const s = ex.settings || {};
    const entries = list(ex.entries, "entries");
    const rounds = list(ex.rounds, "rounds");
    list(ex.apart, "apart");
    list(ex.standings, "standings");
    const ended = ex.status === "ended";
    checks.push(t("format: a well-formed {format}; players: {entries}; rounds: {rounds} of {of}", {
      format: TOURNAMENT_FORMAT, entries: entries.length, rounds: rounds.length, of: s.rounds,
    }));

    // Parts: each published one is the one committed to; all of them once it ended.
    for (const e of entries) {
      if (e.part === null || e.part === undefined) {
        if (ended) fail(t("{name}'s part is not published, but the tournament has ended", { name: e.name }));
        continue;
      }
      if (!ended) fail(t("{name}'s part is published while the tournament is played: it would tell later tables' dice", { name: e.name }));
      if ((await sha256Hex(e.part)) !== e.commitment) fail(t("{name}'s part does not hash to the commitment {name} entered with", { name: e.name }));
    }
    checks.push(ended
      ? t("parts: every player's part hashes to their commitment")
      : t("parts: none published yet, as while the tournament is played"));

    const entrants = entries.map((e) => ({ name: e.name, rating: Number(e.rating) }));
    const played = [];
    const withdrawn = [];
    let pending = false;
    for (const [k, r] of rounds.entries()) {
      const number = k + 1;
      const apart = ex.apart.filter((a) => a.from_round <= number).map((a) => a.players);
      const again = pairRound(entrants, played, s.table_size, withdrawn, apart);
      const tables = list(r.tables, `rounds[${k}].tables`);
      for (const [i, want] of again.tables.entries()) {
        const got = tables[i] ? tables[i].players : [];
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          fail(t("round {round}, table {table}: the export seats {got}, but the standings before it seat {want} there", {
            round: number, table: i + 1, got: names(entries, got), want: names(entries, want),
          }));
        }
      }
      if (tables.length !== again.tables.length) {
        fail(t("round {round}: the export has {got} tables, but the standings before it make {want}", {
          round: number, got: tables.length, want: again.tables.length,
        }));
      }
      if (JSON.stringify(r.byes) !== JSON.stringify(again.byes)) {
        fail(t("round {round}: the export gives {got} the round off, but the pairing gives it to {want}", {
          round: number, got: names(entries, r.byes) || "–", want: names(entries, again.byes) || "–",
        }));
      }
      const done = [];
      for (const table of tables) {
        const where = t("round {round}, table {table} ({names})", { round: number, table: table.table, names: names(entries, table.players) });
        const rec = table.record || {};
        const spot = rec.tournament || {};
        if (spot.id !== ex.id || spot.round !== number || spot.table !== table.table) {
          fail(t("{where}: its record is not of this tournament's round and table", { where }));
        }
        if (rec.variant !== s.variant || rec.deadline_seconds !== s.deadline_seconds || (rec.spares || 0) !== s.spares) {
          fail(t("{where}: its record is not of the tournament's variant, deadline and spares", { where }));
        }
        const seated = (rec.seats || []).map((seat) => seat.name);
        const joined = Array.isArray(rec.joined) ? rec.joined : seated.map((_, i) => i);
        const inJoiningOrder = [];
        joined.forEach((j, seat) => { inJoiningOrder[j] = seated[seat]; });
        if (JSON.stringify(inJoiningOrder) !== JSON.stringify(table.players.map((p) => entries[p].name))) {
          fail(t("{where}: its record seats {seated}", { where, seated: inJoiningOrder.join(", ") }));
        }
        if (rec.client_seed !== table.players.map((p) => entries[p].client_seed).join(".")) {
          fail(t("{where}: its client seed is not its players' seeds in joining order", { where }));
        }
        const commitments = (rec.parts || []).map((part) => part.commitment);
        if (JSON.stringify(commitments) !== JSON.stringify(table.players.map((p) => entries[p].commitment))) {
          fail(t("{where}: its record's parts are not its players' commitments", { where }));
        }
        const report = await verifyRecord(rec);
        if (!report.ok && !report.pending) fail(`${where}: ${report.problem}`);
        const places = joiningPlaces(rec);
        if (places === null) {
          if (table.points !== null) fail(t("{where}: points are listed, but its match is not over", { where }));
          pending = true;
          continue;
        }
        if (report.pending && !report.pendingParts) pending = true;
        const got = tableTwelfths(places).map(pointsText);
        (table.points || []).forEach((p, i) => {
          if (p !== got[i]) {
            fail(t("{where}: {name}'s points are {listed} in the export, but place {place} of {count} gives {right}", {
              where, name: entries[table.players[i]].name, listed: p, place: places[i], count: places.length, right: got[i],
            }));
          }
        });
        done.push({ players: table.players, places });
      }
      played.push({ tables: done, byes: r.byes });
      withdrawn.push(...list(r.withdrawn, `rounds[${k}].withdrawn`));
      checks.push(t("round {round}: paired again from the standings, the same tables and byes; every table's record verifies and gives the points listed", { round: number }));
    }

    // The standings after the last round whose tables have all ended.
    let complete = rounds.length;
    while (complete > 0 && played[complete - 1].tables.length !== rounds[complete - 1].tables.length) complete -= 1;
    const again = standings(entrants, played.slice(0, complete));
    ex.standings.forEach((row, i) => {
      const want = again[i];
      if (!want || row.player !== want.player) {
        fail(t("standings: place {place} is {got} in the export, but {want} by the points", {
          place: i + 1, got: entries[row.player] ? entries[row.player].name : "?", want: want ? entries[want.player].name : "–",
        }));
      }
      if (row.points !== pointsText(want.points) || row.buchholz !== pointsText(want.buchholz)) {
        fail(t("standings: in the export {name} has points {points} and Buchholz {buchholz}, but the tables give {right_points} and {right_buchholz}", {
          name: entries[row.player].name, points: row.points, buchholz: row.buchholz,
          right_points: pointsText(want.points), right_buchholz: pointsText(want.buchholz),
        }));
      }
    });
    if (ex.standings.length !== again.length) fail(t("standings: not every player is listed"));
    checks.push(t("standings: every player's points and Buchholz, and the order"));
    if (ended && rounds.length !== s.rounds) fail(t("status: ended, but {played} of {rounds} rounds were played", { played: rounds.length, rounds: s.rounds }));
    if (!ended || pending) {
      return { ok: false, checks, problem: null, pending: true, summary: t("Nothing wrong so far; the tournament is still played, so its parts are not out yet.") };
    }
    return { ok: true, checks, problem: null, pending: false, summary: t("The tournament verifies: every pairing, every table and every point.") };
  } catch (err) {
    const problem = err instanceof Difference ? err.message : String(err);
    return { ok: false, checks, problem, pending: false, summary: t("Not verified.") };
  }
}
