// The verifier's sentences about daily entries and records whose seed is not published
// yet, each through the catalog (t, tn from i18n.js): verify-words.js adds them to the
// rest, so the verifier has one place, V, to say anything. Counted nouns go through tn;
// as there, a piece that goes into a sentence is worked out first by its own call.
import { andList, t, tn } from "./i18n.js";

const jackpots = (n) => tn("{n} jackpot", "{n} jackpots", n);
const turnsWord = (n) => tn("{n} turn", "{n} turns", n);

/** "2 jackpots, total 143": a daily result in words. */
function score(result) {
  const count = jackpots(result.jackpots);
  return t("{jackpots}, total {total}", { jackpots: count, total: result.total });
}

/** How an entry stands against par, with what makes the difference. */
function versus(v) {
  const details = [];
  let part = null;
  if (v.jackpots > 0) part = tn("{n} jackpot more", "{n} jackpots more", v.jackpots);
  if (v.jackpots < 0) part = tn("{n} jackpot fewer", "{n} jackpots fewer", -v.jackpots);
  if (part) details.push(part);
  let total = t("the same total as par");
  if (v.total < 0) total = t("total {n} under par", { n: -v.total });
  if (v.total > 0) total = t("total {n} over par", { n: v.total });
  details.push(total);
  const said = details.join("; ");
  if (v.standing === "better") return t("better than par ({details})", { details: said });
  if (v.standing === "level") return t("level with par ({details})", { details: said });
  return t("worse than par ({details})", { details: said });
}

export const DAILY = {
  score,
  versus,
  /** A problem in a daily entry, named by the turn it is in ("turn 2, throw 1: …"). */
  inTurn: (turn, problem) => t("turn {turn}, {problem}", { turn, problem }),

  // ------------------------------------------------------------ the record's shape
  dailyNotV3: (format, v3) =>
    t("the record says it is a {format}, yet it is a daily entry, which only a {v3} can be", { format, v3 }),
  badDaily: () => t("the record's daily deal is damaged: it must give the day, written YYYY-MM-DD, and its 10 turns"),
  dailySeats: () => t("a daily entry is the play of one person, but the record lists other seats or a bot"),
  dailyDeadline: () => t("a daily entry has no time limit for each throw, but the record gives one"),
  dailyResultShape: () =>
    t("the record's result is damaged: a daily entry's result gives the 10 turn scores (0 to 45), the jackpots and the total"),

  // ------------------------------------------------------------ why it ended
  endAllTurns: (n) => tn("the entry's {n} turn was played", "all {n} turns of the entry were played", n),
  endGaveUp: () => t("the player gave up"),
  endDayClosed: () => t("the day ended before the entry was finished"),

  // ------------------------------------------------------------ the replay
  dailyClientSeed: (given, expected, variant, date) =>
    t("the client seed in the record ({given}) is not the deal's: the {variant} deal of {date} has the client seed {expected}, fixed by its day and variant", {
      given,
      expected,
      variant,
      date,
    }),
  dailyOutOfOrder: (k, given, due) =>
    t("throw {throw}: the record numbers it {given}, but its number in the deal is {due}: a turn's throws are numbered from 16 times the turn's number (counted from 0), so that everyone gets the same dice in every turn", {
      throw: k + 1,
      given,
      due,
    }),
  throwAfterEntry: (why) => t("a throw came after the entry was over ({why})", { why }),
  outAfterEntry: (why) => t("the player left after the entry was over ({why})", { why }),
  entryNotClosed: (turn, turns) =>
    t("the day is over (its server seed is published), yet the entry stops in turn {turn} of {turns}: when a day ends, an unfinished entry is closed and its remaining turns score 45", {
      turn,
      turns,
    }),
  resultButPlaying: (turn, turns) =>
    t("the record gives a result, but by its throws the entry is not over: turn {turn} of {turns} is being played", {
      turn,
      turns,
    }),
  noDailyResult: (why) => t("the entry ended ({why}), but the record has no result", { why }),
  seedUnpublishedDaily: (day) =>
    t("the server seed is not published yet: it is revealed when the day ends, at 00:00 UTC on {day}, and only then can the dice and par be checked", {
      day,
    }),

  // ------------------------------------------------------------ what held
  checkCommitmentDaily: (short) =>
    t("The server seed, published when the day ended, gives the commitment {commitment}… published before the day began, so the server fixed the deal's dice before anyone played it and could not change them.", {
      commitment: short,
    }),
  checkDailyRecord: (variant, date) =>
    t("The record is complete: one person's entry in the {variant} deal of {date}.", { variant, date }),
  checkDailyClientSeed: (seed) =>
    t("The client seed ({seed}) is the deal's: fixed by its day and variant before the server's seed was chosen, and the same for everyone who plays it.", {
      seed,
    }),
  checkDailyThrows: (n) =>
    tn(
      "The {n} throw came in order, in its own place among the deal's dice, and every turn ended, by a throw that offered nothing or a shut box, before the next began.",
      "All {n} throws came in order, each turn's in its own place among the deal's dice, and every turn ended, by a throw that offered nothing or a shut box, before the next began.",
      n,
    ),
  checkAllTurns: (n) => tn("The entry's {n} turn was played from a full board.", "All {n} turns were played, each from a full board.", n),
  checkGaveUp: (played, turn) => {
    const done = turnsWord(played);
    return t("The player finished {turns} and gave up in turn {turn}: it and every later turn score 45.", { turns: done, turn });
  },
  checkDayClosed: (played, turn) => {
    const done = turnsWord(played);
    return t("The player finished {turns} and the day ended during turn {turn}: it and every later turn score 45.", {
      turns: done,
      turn,
    });
  },
  checkPlaying: (scores, turn) => {
    const done = turnsWord(scores.length);
    const list = scores.length ? andList(scores) : "–";
    return t("So far {turns} finished, scoring {scores}; turn {turn} is being played.", { turns: done, scores: list, turn });
  },
  checkDailyResult: (result) => {
    const said = score(result);
    return t("The result worked out again from the throws is the one in the record: {score}, turn by turn {scores}.", {
      score: said,
      scores: andList(result.turn_scores),
    });
  },
  checkPar: (par) => {
    const said = score(par);
    return t("Par, the best bot playing the same dice, makes {score} (turn by turn {scores}).", {
      score: said,
      scores: andList(par.turn_scores),
    });
  },

  // ------------------------------------------------------------ the verdict
  verifiedDaily: (variant, date, result, against) => {
    const said = score(result);
    return t("Verified: the {variant} deal of {date}, {score}: {versus}. Every die came from seeds fixed before the day began.", {
      variant,
      date,
      score: said,
      versus: against,
    });
  },
  notYetVerified: (problem) => t("Not verifiable yet: {problem}.", { problem }),
};
