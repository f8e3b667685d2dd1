// The Swiss rules of docs/tournaments.md, written again for the browser's verifier of
// a tournament export: a table's points, the standings with Buchholz, the tables'
// sizes and a round's pairing. Points are counted in twelfths (every point a table of
// 2 to 4 gives, and a bye, is a whole number of them), so everything is exact. A
// player is named by their entry number. Nothing here reads the page.

const TWELFTHS = 12;
const BYE = 6; // half a point
const LOOKAHEAD_TABLES = 2;

/** Each seat's points at a table, in twelfths, from its places (1 = best). */
export function tableTwelfths(places) {
  const n = places.length;
  if (n < 2 || n > 4) throw new Error(`a table has 2 to 4 players, not ${n}`);
  return places.map((p) => {
    const below = places.filter((q) => q > p).length;
    const sharing = places.filter((q) => q === p).length - 1;
    return (6 * (2 * below + sharing)) / (n - 1);
  });
}

function gcd(a, b) {
  return b === 0 ? a : gcd(b, a % b);
}

/** Twelfths as the export writes a fraction: "3/2", "1", "0". */
export function pointsText(twelfths) {
  const d = gcd(Math.abs(twelfths), TWELFTHS) || TWELFTHS;
  const num = twelfths / d;
  const den = TWELFTHS / d;
  return den === 1 ? String(num) : `${num}/${den}`;
}

/**
 * Every entrant in order: points, Buchholz (more first), rating (higher first), name
 * (by code point), entry number. `rounds`: [{tables: [{players, places}], byes}].
 * Returns [{player, points, buchholz}] in twelfths.
 */
export function standings(entrants, rounds) {
  const points = entrants.map(() => 0);
  for (const r of rounds) {
    for (const table of r.tables) {
      const got = tableTwelfths(table.places);
      table.players.forEach((p, i) => { points[p] += got[i]; });
    }
    for (const p of r.byes) points[p] += BYE;
  }
  const buchholz = entrants.map(() => 0);
  for (const r of rounds) {
    for (const table of r.tables) {
      const sum = table.players.reduce((s, p) => s + points[p], 0);
      for (const p of table.players) buchholz[p] += sum - points[p];
    }
  }
  const codePoints = (s) => Array.from(s, (c) => c.codePointAt(0));
  const byName = (a, b) => {
    const x = codePoints(a), y = codePoints(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const order = entrants.map((_, p) => p).sort((a, b) =>
    points[b] - points[a] ||
    buchholz[b] - buchholz[a] ||
    entrants[b].rating - entrants[a].rating ||
    byName(entrants[a].name, entrants[b].name) ||
    a - b);
  return order.map((p) => ({ player: p, points: points[p], buchholz: buchholz[p] }));
}

/** The round's table sizes, top table first; a final 1 is the bye. */
export function tableSizes(players, size) {
  if (players === 0) return [];
  const tables = Math.ceil(players / size);
  const base = Math.floor(players / tables);
  const larger = players % tables;
  return [...Array(larger).fill(base + 1), ...Array(tables - larger).fill(base)];
}

/**
 * The pairing of the next round after `rounds`, for the players not `withdrawn`, with
 * `apart` ([[i, j]]) never at one table: {tables (joining order), byes}.
 */
export function pairRound(entrants, rounds, size, withdrawn, apart) {
  const gone = new Set(withdrawn);
  const order = standings(entrants, rounds).map((s) => s.player).filter((p) => !gone.has(p));
  const met = new Map();
  const hadBye = new Set();
  for (const r of rounds) {
    for (const table of r.tables) {
      for (const p of table.players) {
        if (!met.has(p)) met.set(p, new Set());
        for (const q of table.players) if (q !== p) met.get(p).add(q);
      }
    }
    for (const p of r.byes) hadBye.add(p);
  }
  const kept = new Map();
  for (const [a, b] of apart) {
    if (!kept.has(a)) kept.set(a, new Set());
    if (!kept.has(b)) kept.set(b, new Set());
    kept.get(a).add(b);
    kept.get(b).add(a);
  }
  return pair(order, size, met, kept, hadBye);
}

function pair(order, size, met, kept, hadBye) {
  const pool = [...order];
  let bye = null;
  const plan0 = tableSizes(pool.length, size);
  if (plan0.length && plan0[plan0.length - 1] === 1) {
    bye = [...pool].reverse().find((p) => !hadBye.has(p));
    if (bye === undefined) bye = pool[pool.length - 1];
    pool.splice(pool.indexOf(bye), 1);
  }
  const b = { pool, tables: [], out: [], window: 0, bye };
  const maySit = (player, table) => !table.some((q) => (kept.get(player) || new Set()).has(q));
  const take = (i) => {
    if (i < b.window) b.window -= 1;
    return b.pool.splice(i, 1)[0];
  };
  const choose = (table) => {
    let fallback = null;
    for (let i = 0; i < Math.min(b.window, b.pool.length); i++) {
      const player = b.pool[i];
      if (!maySit(player, table)) continue;
      const seen = met.get(player) || new Set();
      if (!table.some((q) => seen.has(q))) return i;
      if (fallback === null) fallback = i;
    }
    if (fallback !== null) return fallback;
    for (let i = b.window; i < b.pool.length; i++) if (maySit(b.pool[i], table)) return i;
    return null;
  };
  const swapIn = (table) => {
    for (let i = 0; i < b.pool.length; i++) {
      const player = b.pool[i];
      if (b.bye !== null && maySit(b.bye, table)) {
        table.push(b.bye);
        b.bye = take(i);
        return true;
      }
      for (let m = b.tables.length - 1; m >= 0; m--) {
        const made = b.tables[m];
        for (let seat = made.length - 1; seat >= 0; seat--) {
          const other = made[seat];
          const rest = [...made.slice(0, seat), ...made.slice(seat + 1)];
          if (maySit(other, table) && maySit(player, rest)) {
            made[seat] = player;
            table.push(other);
            take(i);
            return true;
          }
        }
      }
    }
    return false;
  };
  while (b.pool.length) {
    const plan = tableSizes(b.pool.length, size);
    b.window = plan.slice(0, 1 + LOOKAHEAD_TABLES).reduce((s, x) => s + x, 0);
    const table = [];
    while (table.length < plan[0] && b.pool.length) {
      const i = choose(table);
      if (i !== null) table.push(take(i));
      else if (!swapIn(table)) break;
    }
    if (table.length === 1) b.out.push(table[0]);
    else if (table.length) b.tables.push(table);
  }
  const position = new Map(order.map((p, i) => [p, i]));
  const tables = b.tables
    .map((t) => [...t].sort((x, y) => position.get(x) - position.get(y)))
    .sort((x, y) => position.get(x[0]) - position.get(y[0]));
  return { tables, byes: [...(b.bye === null ? [] : [b.bye]), ...b.out] };
}
