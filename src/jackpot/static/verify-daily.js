// The daily entry's part of the verifier (verify.js calls it): the deal's client seed,
// how the entry ended, its result, and par, the best bot playing the same dice, which
// the entry is set against once the day's seed is published.

import { botCover, botDiceCount, maskOf, options, scoreOf, tilesOf } from "./replay-rules.js";
import { positionDice, throwDice } from "./verify-seeds.js";
import { Waiting, fail, sameList } from "./verify-shape.js";
import { Replay } from "./verify-replay.js";
import { V } from "./verify-words.js";

/** The client seed of a day's deal: fixed by its date and variant. */
export function dailyClientSeed(date, variant) {
  return `daily-${date}-${variant}`;
}

export function checkDailyClientSeed(rec, checks) {
  const expected = dailyClientSeed(rec.daily.date, rec.variant);
  if (rec.client_seed !== expected) {
    fail(V.dailyClientSeed(JSON.stringify(rec.client_seed), expected, V.variant(rec.variant), rec.daily.date));
  }
  checks.push(V.checkDailyClientSeed(expected));
}

/** The best bot's entry in the deal: its result (turn_scores, jackpots, total), on the
 * deal's dice by number or, `byPosition`, by each throw's turn and open tiles. */
export async function dailyPar(seed, date, variant, turns = 10, byPosition = false) {
  const client = dailyClientSeed(date, variant);
  const game = new Replay(variant, 1, () => "", { turns });
  while (!game.over) {
    const count = botDiceCount(variant, "best", game.open);
    const dice = byPosition
      ? await positionDice(seed, client, game.round - 1, tilesOf(game.open), count)
      : await throwDice(seed, client, game.nextN, count);
    game.nextN += 1;
    game.turnThrows += 1;
    if (!options(variant, game.open, dice).length) {
      game.endTurn(scoreOf(game.open), false);
      continue;
    }
    game.open &= ~maskOf(botCover(variant, "best", game.open, dice));
    if (game.open === 0) game.endTurn(0, true);
  }
  return game.result;
}

/** How an entry compares with par by the board's order: jackpots, then the total. */
export function versusPar(entry, par) {
  const jackpots = entry.jackpots - par.jackpots;
  const total = entry.total - par.total;
  const better = jackpots > 0 || (jackpots === 0 && total < 0);
  const level = jackpots === 0 && total === 0;
  return { jackpots, total, standing: level ? "level" : better ? "better" : "worse" };
}

function dayAfter(date) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86400000).toISOString().slice(0, 10);
}

const ENDINGS = { resigned: "gave_up", timeout: "day_closed" };

/**
 * After the replay of a daily entry: how it ended and its result, then par. Returns
 * { summary, daily }; throws Waiting (with the entry as far as it goes) while the
 * day's seed is not published.
 */
export async function finishDaily(rec, game, seed, checks) {
  const turns = rec.daily.turns;
  const daily = {
    date: rec.daily.date,
    variant: rec.variant,
    ending: "playing",
    played: [...game.played],
    entry: null,
    par: null,
    versus: null,
    versusText: null,
  };
  const waiting = () => new Waiting(V.seedUnpublishedDaily(dayAfter(rec.daily.date)), daily);
  const claimed = rec.result ?? null;
  if (!game.over) {
    if (seed !== null) fail(V.entryNotClosed(game.round, turns));
    if (claimed !== null) fail(V.resultButPlaying(game.round, turns));
    checks.push(V.checkPlaying(game.played, game.round));
    throw waiting();
  }
  daily.ending = ENDINGS[game.out[0]] ?? "finished";
  const played = game.played.length;
  if (daily.ending === "finished") checks.push(V.checkAllTurns(turns));
  else if (daily.ending === "gave_up") checks.push(V.checkGaveUp(played, played + 1));
  else checks.push(V.checkDayClosed(played, played + 1));
  if (claimed === null) fail(V.noDailyResult(game.endedBy));
  const mine = game.result;
  for (const field of ["turn_scores", "jackpots", "total"]) {
    const ours = mine[field];
    const same = Array.isArray(ours) ? sameList(claimed[field], ours) : claimed[field] === ours;
    if (!same) fail(V.resultDiffers(rec.seats, field, claimed[field], ours));
  }
  checks.push(V.checkDailyResult(mine));
  daily.entry = mine;
  if (seed === null) throw waiting();
  daily.par = await dailyPar(seed, rec.daily.date, rec.variant, turns, rec.daily.dice === "by-position");
  checks.push(V.checkPar(daily.par));
  daily.versus = versusPar(mine, daily.par);
  daily.versusText = V.versus(daily.versus);
  const summary = V.verifiedDaily(V.variant(rec.variant), rec.daily.date, mine, daily.versusText);
  return { summary, daily };
}
