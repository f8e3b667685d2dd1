// The verifier's sentences about what jackpot-record/4 adds (a server seed made of parts,
// a tournament table, spare deadlines, a daily deal's dice by position) and about what
// any record may say without it being checked (where the match came from, a client seed
// the server made). Each goes through the catalog (t, tn from i18n.js); verify-words.js
// adds them to V. As there, a piece that goes into a sentence is worked out first.
import { andList, t, tn } from "./i18n.js";

const partsOf = (n) => tn("{n} part", "{n} parts", n);

/** What made a match, in words, for the origin's note. */
function originWhat(kind) {
  if (kind === "bot") return t("a match against the bot");
  if (kind === "solo") return t("solo practice");
  if (kind === "people") return t("a match between people, made in the lobby");
  if (kind === "play_now") return t("a match found by Play now");
  if (kind === "challenge") return t("a challenge");
  if (kind === "rematch") return t("a rematch");
  if (kind === "daily") return t("an entry in the daily deal");
  return t("a tournament match");
}

/** What a record holds that only a jackpot-record/4 may. */
function addition(key) {
  if (key === "parts") return t("the parts of the server seed");
  if (key === "tournament") return t("a tournament table");
  if (key === "spares") return t("spare deadlines");
  return t("dice by position");
}

export const V4 = {
  // ------------------------------------------------------------ the record's shape
  v4FieldInOlder: (key, format, v4) => {
    const what = addition(key);
    return t("the record says it is a {format}, yet it holds {what}, which only a {v4} has", { format, what, v4 });
  },
  v4UsesNothing: (v4, v3) =>
    t("the record says it is a {v4}, yet it has none of what a {v4} adds (parts of the server seed, spare deadlines, dice by position): it should be a {v3}", {
      v4,
      v3,
    }),
  badParts: () =>
    t("the record's parts of the server seed are damaged: each must give its commitment (64 characters, digits 0-9 and letters a-f) and then the part itself, or nothing while it is not published"),
  partsHalfShown: (shown, n) =>
    tn(
      "the record shows {shown} of the {n} part of the server seed, but they are published all together",
      "the record shows {shown} of the {n} parts of the server seed, but they are published all together",
      n,
      { shown },
    ),
  partsBeforeSeed: () =>
    t("the record shows the parts of the server seed while the seed itself is not published: they are published with it, or later"),
  badTournament: () =>
    t("the record's tournament table is damaged: it must name the tournament and give the round and the table, each numbered from 1"),
  tournamentWithoutParts: () =>
    t("the record names a tournament table, but not the parts the table's server seed is made of"),
  badSpares: () => t("the record's spare deadlines are damaged: each player has 1 to 5 of them"),
  spareWithoutSpares: (i) =>
    t("move {event} of the record uses a spare deadline, but the match gives none", { event: i + 1 }),
  lastRoundOutsideTournament: (i) =>
    t("move {event} of the record ends the match with its round, but only a tournament table's round can run out of time", { event: i + 1 }),
  lastRoundWithoutRound: (i) =>
    t("move {event} of the record ends the match with its round, but does not say which round", { event: i + 1 }),
  lastRoundClassic: () =>
    t("the record ends a Classic match with its round early, but Classic has one round, which is its last anyway"),
  lastRoundTwice: (round) =>
    t("the record ends the match with its round twice: it was already to end with round {round}", { round }),
  lastRoundWrong: (said, round) =>
    t("the record ends the match with round {said}, but round {round} was being played", { said, round }),
  endLastRound: (round) =>
    t("the tournament round's time ran out, so the match ended with its round {round}", { round }),
  spareWithoutSeat: (i) =>
    t("move {event} of the record uses a spare deadline, but does not say whose", { event: i + 1 }),
  badOrigin: () =>
    t("the record's origin is damaged: it must say what made the match, in one of the words this page knows, and give its id or nothing"),
  badSeedBy: (seat) =>
    t("seat {seat} carries a mark this page does not know: the only mark a seat may carry is that the server made its client seed", {
      seat: seat + 1,
    }),
  seedByBot: (seat) =>
    t("seat {seat} is a bot, yet is marked as having a client seed the server made: a bot adds nothing to the client seed", {
      seat: seat + 1,
    }),
  dailyNotByPosition: (v4) =>
    t("the record is a daily entry in a {v4}, whose dice go by position, but it does not say so", { v4 }),
  dailyWithAdditions: () =>
    t("a daily entry has no parts of a server seed, no tournament table and no spare deadlines, but the record gives some"),

  // ------------------------------------------------------------ the replay
  seedPartsCount: (count, people) => {
    const given = partsOf(count);
    return tn(
      "the server seed has {parts}, but {n} person played: each person adds one",
      "the server seed has {parts}, but {n} people played: each person adds one",
      people,
      { parts: given },
    );
  },
  partMismatch: (who, hash, commitment) =>
    t("the part of the server seed from {who} is not the one promised to them: it gives {hash}, not the commitment {commitment} they were shown before choosing their client seed", {
      who,
      hash,
      commitment,
    }),
  seedNotFromParts: (made, seed) =>
    t("the server seed is not made of its parts: in the order the players took their seats they give {made}, but the record's seed is {seed}", {
      made,
      seed,
    }),
  seedNotFromTableParts: (made, seed, round, table) =>
    t("the server seed is not made of its parts: in the order the players took their seats, as round {round}, table {table} of the tournament, they give {made}, but the record's seed is {seed}", {
      made,
      seed,
      round,
      table,
    }),
  partsUnpublished: () =>
    t("the parts of the server seed are not published yet (a tournament's are published when it ends): everything else holds, and whether the seed is made of them waits for them"),
  spareAfterOut: (who) => t("{who} used a spare deadline after going out", { who }),
  tooManySpares: (who, spares) =>
    tn(
      "{who} used more spare deadlines than the {n} the match gives each player",
      "{who} used more spare deadlines than the {n} the match gives each player",
      spares,
      { who },
    ),
  timeoutWithSpare: (who, left) =>
    tn(
      "{who} ran out of time with {n} spare deadline left: a missed deadline uses a spare while the player has one",
      "{who} ran out of time with {n} spare deadlines left: a missed deadline uses a spare while the player has one",
      left,
      { who },
    ),
  unfairPositionDice: (k, dice, fair) =>
    t("throw {throw}: the record shows the dice {dice}, but for this turn and these open tiles the seeds give {fair}, so the dice were changed", {
      throw: k + 1,
      dice: andList(dice),
      fair: andList(fair),
    }),

  // ------------------------------------------------------------ what held
  checkParts: (n) =>
    tn(
      "The server seed is made of {n} part, whose commitment its player was shown before choosing a client seed: the part gives that commitment, and the server seed is worked out from it, so the server could not try seeds against the player's.",
      "The server seed is made of {n} parts, whose commitments the players were shown before choosing their client seeds: each part gives its commitment, and the server seed is worked out from the parts in the order the players took their seats, so the server could not try seeds against theirs.",
      n,
    ),
  checkTable: (round, table) =>
    t("The server seed belongs to round {round}, table {table} of the tournament: both go into it with the parts.", { round, table }),
  checkPartsHidden: (n) =>
    tn(
      "The record gives the commitment of the {n} part of the server seed, shown to its player before they chose a client seed.",
      "The record gives the commitments of the {n} parts of the server seed, each shown to its player before they chose a client seed.",
      n,
    ),
  checkSpares: (spares, used) =>
    tn(
      "Each player had {n} spare deadline and used no more ({used}), and nobody ran out of time while a spare was left.",
      "Each player had {n} spare deadlines and used no more ({used}), and nobody ran out of time while a spare was left.",
      spares,
      { used: used.join(", ") },
    ),
  checkByPosition: () =>
    t("This deal's dice go by position: each throw comes from its turn and the tiles open when it was thrown, so a player who reaches the same tiles in the same turn gets the same throw."),
  checkClientSeedServerMade: (seed, names, count) =>
    tn(
      "The client seed ({seed}) has one piece for each person in the match; the server made the piece of {names}, who sent none.",
      "The client seed ({seed}) has one piece for each person in the match; the server made the pieces of {names}, who sent none.",
      count,
      { seed, names: andList(names) },
    ),

  // ------------------------------------------------------------ said, not checked
  noteOrigin: (kind, id) => {
    const what = originWhat(kind);
    return id === null || id === undefined
      ? t("The record says this was {what}; that changes nothing checked here.", { what })
      : t("The record says this was {what} ({id}); that changes nothing checked here.", { what, id });
  },
  noteSeedByServer: (who) =>
    t("{who} sent no client seed, so the server made one: that piece gave {who} no say in the dice.", { who }),
};
