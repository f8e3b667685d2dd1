// Every sentence the match page shows of a daily entry (its own head line, score,
// result, place, share text and giving up), each through the catalog; match-words.js
// holds the rest. Functions take what varies; nothing here touches the page.
import { t, tn } from "./i18n.js";

const variantName = (v) => (v === "classic" ? t("Classic") : t("Jackpot"));
const jackpots = (n) => tn("{n} jackpot", "{n} jackpots", n);

export const D = {
  turnHead: (turn, turns) => t("Turn {turn} of {turns}", { turn, turns }),
  soFar: (j, total) => t("{jackpots} · total {total} so far", { jackpots: jackpots(j), total }),
  closesIn: (left) => t("The day's deal closes in {time}", { time: left }),
  closed: t("The day's deal has closed"),

  // the log: a throw by its turn and its place in it (its number jumps from turn to
  // turn: turn t's throws are numbered from 16t), and how the entry ended early
  throwNo: (n) => t("Turn {turn}, throw {throw}", { turn: Math.floor(n / 16) + 1, throw: (n % 16) + 1 }),
  logOut: (reason) => (reason === "timeout" ? t("The day closed before the entry's end") : t("You gave up")),

  // the result
  finished: (j, total) => t("Entry done: {jackpots}, total {total}", { jackpots: jackpots(j), total }),
  gaveUp: (j, total) =>
    t("You gave up: {jackpots}, total {total} (the turns not played score 45 each)", { jackpots: jackpots(j), total }),
  dayClosed: (j, total) =>
    t("The day closed before the end: {jackpots}, total {total} (the turns not played score 45 each)", {
      jackpots: jackpots(j),
      total,
    }),
  turnScores: (scores) => t("Turn scores: {scores}.", { scores: scores.join(", ") }),
  placeSoFar: (place, count) => t("Your place so far: {place} of {count}.", { place, count }),
  placeFinal: (place, count) => t("Your place: {place} of {count}.", { place, count }),
  par: (j, total) => t("Par, the best bot on the same dice: {jackpots}, total {total}.", { jackpots: jackpots(j), total }),
  versus: (standing) =>
    ({
      better: t("You did better than par."),
      level: t("You matched par."),
      worse: t("Par did better than you."),
    })[standing],

  // sharing: nothing in it tells the dice
  shareHead: (variant, day) => t("{variant} daily {date}", { variant: variantName(variant), date: day }),
  shareResult: (j) => jackpots(j),
  copied: t("Result copied. Paste it wherever you like: it tells nobody the dice."),
  selected: t("The result is selected in the box above: copy it from there."),

  // giving up
  resign: t("Give up"),
  resignQ: t("Give up this entry? The turns you have not finished score 45 each."),
  resignYes: t("Yes, give up"),
  title: (mine, variant) =>
    (mine ? t("(Your throw) ") : "") + t("{variant} daily deal · peer2peergames", { variant: variantName(variant) }),
};
