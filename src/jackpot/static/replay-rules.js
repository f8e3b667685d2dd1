// The rules of Jackpot and Classic, the exact solver and the three bots, in plain
// JavaScript so that a record can be replayed in the browser without trusting the
// server (the rules page; docs/fair-play.md for the bots). No dependencies, no build step.
//
// Open sets are 9-bit masks: bit t - 1 stands for tile t. An option is an array of
// distinct tiles sorted ascending; a Jackpot option always has exactly one tile.
// Every value of the solver is an exact fraction of BigInts, so that the best bot's
// tie-breaks come out the same as the server's Fractions on any machine.

export const FULL = 0x1ff;
const HIGH = 0b111000000; // tiles 7, 8 and 9

export const STRENGTHS = ["lowest", "highest", "best"];

export function maskOf(tiles) {
  let mask = 0;
  for (const t of tiles) mask |= 1 << (t - 1);
  return mask;
}

export function tilesOf(mask) {
  const tiles = [];
  for (let t = 1; t <= 9; t++) if (mask & (1 << (t - 1))) tiles.push(t);
  return tiles;
}

export function scoreOf(mask) {
  return tilesOf(mask).reduce((a, b) => a + b, 0);
}

/** Classic lets the player throw one die once 7, 8 and 9 are all covered. */
export function mayThrowOneDie(variant, mask) {
  return variant === "classic" && (mask & HIGH) === 0;
}

/** Lexicographic comparison of two arrays of numbers (as Python compares tuples). */
export function lexCompare(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

const optionCache = new Map();

/** The options a throw offers from an open set, sorted ascending. */
export function options(variant, mask, dice) {
  const key = `${variant}|${mask}|${dice.join(",")}`;
  let found = optionCache.get(key);
  if (found) return found;
  const total = dice.reduce((a, b) => a + b, 0);
  found = [];
  if (variant === "jackpot") {
    const reach = new Set([...dice, total]);
    for (const t of [...reach].sort((a, b) => a - b)) {
      if (t <= 9 && mask & (1 << (t - 1))) found.push([t]);
    }
  } else {
    for (let sub = mask; sub > 0; sub = (sub - 1) & mask) {
      if (scoreOf(sub) === total) found.push(tilesOf(sub));
    }
    found.sort(lexCompare);
  }
  optionCache.set(key, found);
  return found;
}

// ---------------------------------------------------------------- exact fractions

function gcd(a, b) {
  if (a < 0n) a = -a;
  while (b) [a, b] = [b, a % b];
  return a;
}

/** An exact fraction num / den with den > 0, always reduced. */
export class Frac {
  constructor(num, den = 1n) {
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }
  add(o) {
    return new Frac(this.num * o.den + o.num * this.den, this.den * o.den);
  }
  mulInt(k) {
    return new Frac(this.num * BigInt(k), this.den);
  }
  divInt(k) {
    return new Frac(this.num, this.den * BigInt(k));
  }
  cmp(o) {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  toNumber() {
    // Good to 15 significant digits, enough for display and for the tests' figures.
    const scale = 10n ** 18n;
    return Number((this.num * scale) / this.den) / 1e18;
  }
  toString() {
    return `${this.num}/${this.den}`;
  }
}

const ZERO = new Frac(0n);
const ONE = new Frac(1n);

// ---------------------------------------------------------------- the solver

/** Classes of equally useful throws: [representative dice, how many outcomes of 6^count]. */
function throwClasses(variant, count) {
  if (count === 1) return [1, 2, 3, 4, 5, 6].map((d) => [[d], 1]);
  const weights = new Map();
  for (let d1 = 1; d1 <= 6; d1++) {
    for (let d2 = 1; d2 <= 6; d2++) {
      const key = variant === "jackpot" ? `${Math.min(d1, d2)},${Math.max(d1, d2)}` : `${d1 + d2}`;
      const entry = weights.get(key);
      if (entry) entry[1] += 1;
      else weights.set(key, [[d1, d2], 1]);
    }
  }
  return [...weights.values()];
}

function diceCounts(variant, mask) {
  return mayThrowOneDie(variant, mask) ? [1, 2] : [2];
}

function throwValue(variant, mask, count, better, value, dead) {
  let total = ZERO;
  for (const [dice, weight] of throwClasses(variant, count)) {
    const opts = options(variant, mask, dice);
    let pick = dead;
    if (opts.length) {
      pick = null;
      for (const o of opts) {
        const v = value[mask & ~maskOf(o)];
        if (pick === null || better(v, pick)) pick = v;
      }
    }
    total = total.add(pick.mulInt(weight));
  }
  return total.divInt(6 ** count);
}

const tables = new Map();

/**
 * The optimal values of every open set of a variant, solved once, bottom-up: a cover
 * only ever clears bits, so every set a cover leads to has a smaller mask.
 * pMax: the highest probability of shutting the box; eMin: the lowest expected turn
 * score; pBy[c] / eBy[c]: the same when the next throw uses c dice (null if not allowed).
 */
export function optimalTable(variant) {
  let table = tables.get(variant);
  if (table) return table;
  const pMax = new Array(512).fill(ZERO);
  const eMin = new Array(512).fill(ZERO);
  const pBy = { 1: new Array(512).fill(null), 2: new Array(512).fill(null) };
  const eBy = { 1: new Array(512).fill(null), 2: new Array(512).fill(null) };
  pMax[0] = ONE;
  const more = (a, b) => a.cmp(b) > 0;
  const less = (a, b) => a.cmp(b) < 0;
  for (let mask = 1; mask < 512; mask++) {
    const left = new Frac(BigInt(scoreOf(mask)));
    let p = null;
    let e = null;
    for (const count of diceCounts(variant, mask)) {
      const pc = throwValue(variant, mask, count, more, pMax, ZERO);
      const ec = throwValue(variant, mask, count, less, eMin, left);
      pBy[count][mask] = pc;
      eBy[count][mask] = ec;
      if (p === null || more(pc, p)) p = pc;
      if (e === null || less(ec, e)) e = ec;
    }
    pMax[mask] = p;
    eMin[mask] = e;
  }
  table = { pMax, eMin, pBy, eBy };
  tables.set(variant, table);
  return table;
}

/** The highest probability of shutting the box from an open set (exact). */
export function pShutMax(variant, mask = FULL) {
  return optimalTable(variant).pMax[mask];
}

/** The lowest expected turn score from an open set (exact). */
export function expectedScoreMin(variant, mask = FULL) {
  return optimalTable(variant).eMin[mask];
}

// ---------------------------------------------------------------- the bots

/** How many dice a bot throws next: 2, except Classic `best` when one die is strictly better. */
export function botDiceCount(variant, strength, mask) {
  if (strength !== "best" || !mayThrowOneDie(variant, mask)) return 2;
  const t = optimalTable(variant);
  return t.eBy[1][mask].cmp(t.eBy[2][mask]) < 0 ? 1 : 2;
}

function descending(o) {
  return [...o].sort((a, b) => b - a);
}

/** Pick the option with the greatest key; keys are arrays compared element by element. */
function maxBy(opts, keyCompare) {
  let best = opts[0];
  for (const o of opts.slice(1)) if (keyCompare(o, best) > 0) best = o;
  return best;
}

/** The option a bot of this strength covers after these dice (opts must be non-empty). */
export function botCover(variant, strength, mask, dice) {
  const opts = options(variant, mask, dice);
  if (!opts.length) throw new Error("no option to choose");
  if (strength === "lowest") return opts[0]; // sorted ascending: lexicographically smallest
  if (strength === "highest") {
    if (variant === "jackpot") return opts[opts.length - 1];
    return maxBy(opts, (a, b) => lexCompare(descending(a), descending(b)));
  }
  const t = optimalTable(variant);
  const rest = (o) => mask & ~maskOf(o);
  if (variant === "jackpot") {
    // Highest P(jackpot) of what is left, then the lower expected score, then the higher tile.
    return maxBy(opts, (a, b) => {
      const ra = rest(a);
      const rb = rest(b);
      return t.pMax[ra].cmp(t.pMax[rb]) || t.eMin[rb].cmp(t.eMin[ra]) || a[0] - b[0];
    });
  }
  // Lowest expected score of what is left, then the higher P(shut), then the `highest` rule.
  return maxBy(opts, (a, b) => {
    const ra = rest(a);
    const rb = rest(b);
    return (
      t.eMin[rb].cmp(t.eMin[ra]) ||
      t.pMax[ra].cmp(t.pMax[rb]) ||
      lexCompare(descending(a), descending(b))
    );
  });
}
