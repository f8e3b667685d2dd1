// Every sentence the verifier (verify.js) reports, in one place, each through the catalog
// (t, tn from i18n.js), so the Verify page reads in the page's language and a
// translation has one place to cover. Outside a page (node, the tests) it is English.
//
// They are written for a player, not a programmer: a throw is named as the match page
// and the replay name it, counting from 1 (the record's n counts from 0, the dice derive
// from it), a seat by its player's name as the site shows it (a guest's default name in
// the page's language), and no sentence names a field of the file, "null" or "[]".
//
// Babel's extractor does not see a t() nested in another call's arguments, so a piece
// that goes into a sentence is worked out first, by its own call, and passed in.
import { andList, orList, shownName, strengthName, t, tn } from "./i18n.js";
import { DAILY } from "./verify-words-daily.js";
import { V4 } from "./verify-words-v4.js";

const show = (v) => JSON.stringify(v);

// Counted nouns, each language's form for the count; sentences put them in.
const seats = (n) => tn("{n} seat", "{n} seats", n);
const throws = (n) => tn("{n} throw", "{n} throws", n);
const rounds = (n) => tn("{n} round", "{n} rounds", n);
const parts = (n) => tn("{n} part", "{n} parts", n);
const oneDieThrows = (n) => tn("{n} one-die throw", "{n} one-die throws", n);
const choices = (n) => tn("{n} choice", "{n} choices", n);
const classic = () => t("Classic");
const jackpot = () => t("Jackpot");

const seatOnly = (seat) => t("seat {seat}", { seat });
const seatNamed = (seat, name) => t("seat {seat} ({name})", { seat, name });

/** What a part of the result is, in words. */
function resultPart(field) {
  if (field === "rounds") return t("the number of rounds");
  if (field === "totals") return t("the totals");
  if (field === "shut") return t("the throws each took to shut the box");
  if (field === "places") return t("the places");
  if (field === "turn_scores") return t("the turn scores");
  if (field === "jackpots") return t("the number of jackpots");
  if (field === "total") return t("the total");
  return t("the winners");
}

/** A seat as the report names it: its player's name, the seat's number (from 1) with it
 * when two seats share a name, the number alone when the seat has no name. */
function who(seats, s) {
  const name = seats[s] && seats[s].name ? shownName(seats[s].name) : "";
  if (!name) return seatOnly(s + 1);
  const twin = seats.some((o, k) => k !== s && o && o.name === seats[s].name);
  return twin ? seatNamed(s + 1, name) : name;
}

/** A per-seat list of the result ("Ana 12, Bot 20"), or the list as it is written when
 * it does not have one entry per seat. */
function perSeat(seats, values) {
  if (!Array.isArray(values) || values.length !== seats.length) return show(values);
  return values.map((v, s) => `${who(seats, s)} ${v === null ? "–" : v}`).join(", ");
}

function resultValue(seats, field, value) {
  if (field === "rounds" || field === "jackpots" || field === "total") return show(value);
  if (field === "turn_scores") return Array.isArray(value) ? andList(value) : show(value);
  if (field !== "winners") return perSeat(seats, value);
  if (!value.length) return t("nobody");
  return andList(value.map((s) => (Number.isInteger(s) && seats[s] ? who(seats, s) : show(s))));
}

function offer(dice, opts, open) {
  const thrown = andList(dice);
  const tiles = andList(open);
  if (!opts.length) return t("the dice {dice} reach nothing among the open tiles {tiles}", { dice: thrown, tiles });
  const reach = orList(opts.map((o) => (o.length === 1 ? String(o[0]) : `{${o.join(", ")}}`)));
  return t("the dice {dice} reach {options} among the open tiles {tiles}", { dice: thrown, options: reach, tiles });
}

export const V = {
  ...DAILY,
  ...V4,
  variant: (v) => (v === "classic" ? classic() : jackpot()),
  /** A seat by its player's name ("Ana", "Guest 1a2b" in the page's language). */
  who,
  /** "1, 2 and 3" the page's way, for lists of names. */
  names: (items) => andList(items),

  // ------------------------------------------------------------ the record's shape
  notObject: () => t("this is not a match record: it does not hold a match's details"),
  notJson: () => t("this is not a match record: its text is not valid JSON"),
  notJsonAt: (line, column) =>
    t("this is not a match record: its text is not valid JSON near line {line}, column {column}", {
      line,
      column,
    }),
  cutShort: () => t("this is not a match record: its text ends too soon, as if it had been cut off"),
  noFormat: () => t("this is not a match record: it does not say what kind of record it is"),
  badFormat: (given, formats) =>
    t("this page cannot check this kind of record: it says it is {given}, and the page checks {formats}", {
      given: show(given),
      formats: orList(formats),
    }),
  badVariant: (given) => t("the record names the game {given}, which is neither Jackpot nor Classic", { given: show(given) }),
  badSeats: () => t("the record does not list the match's seats (1 to 4 of them)"),
  noName: (s) => t("seat {seat} has no name", { seat: s + 1 }),
  badBot: (s, given) => t("seat {seat} is listed as a bot of an unknown strength ({given})", { seat: s + 1, given: show(given) }),
  badJoined: () =>
    t("the record's order of play is damaged: it must say, once for each seat, when that seat was taken"),
  joinedInV1: (format, other) =>
    t("the record says it is an older {format}, yet it holds an order of play, which only a {other} has", {
      format,
      other,
    }),
  badCommitment: () => t("the commitment in the record is damaged: it should be 64 characters, digits 0-9 and letters a-f"),
  noClientSeed: () => t("the client seed is missing"),
  noEvents: () => t("the record has no list of moves"),
  eventNotObject: (i) => t("move {event} of the record is damaged", { event: i + 1 }),
  throwWithoutN: (i) => t("move {event} of the record is a throw without its number", { event: i + 1 }),
  throwSeatNaN: (n) => t("throw {throw} does not say who threw", { throw: n + 1 }),
  badDiceCount: (n) => t("throw {throw} does not show one or two dice", { throw: n + 1 }),
  badDiceValues: (n, dice) =>
    t("throw {throw} shows dice that are not numbers from 1 to 6: {dice}", { throw: n + 1, dice: show(dice) }),
  badCover: (n) => t("throw {throw} does not say properly which tiles were covered", { throw: n + 1 }),
  outWithoutSeat: (i) => t("move {event} of the record says a player left, but not who", { event: i + 1 }),
  badReason: (i, given) =>
    t("move {event} of the record says a player left for an unknown reason ({given}): a player leaves only by resigning or running out of time", {
      event: i + 1,
      given: show(given),
    }),
  unknownType: (i, given) =>
    t("move {event} of the record is neither a throw nor a player leaving ({given})", { event: i + 1, given: show(given) }),
  noSuchSeat: (i, seat, n) =>
    tn("move {event} of the record names seat {seat}, but the match has {n} seat", "move {event} of the record names seat {seat}, but the match has {n} seats", n, {
      event: i + 1,
      seat: Number.isInteger(seat) ? seat + 1 : show(seat),
    }),
  resultNotObject: () => t("the record's result is damaged"),
  resultMissing: (field) => t("the record's result does not give {what}", { what: resultPart(field) }),

  // ------------------------------------------------------------ why the match ended
  endShutClassic: (who) => t("{who} shut the box in Classic, which wins at once", { who }),
  endClassicRound: () => t("Classic is one round and every seat still in had its turn"),
  endShutRound: (round) => t("the box was shut in round {round} and the round is over", { round }),
  endSoloOut: () => t("the only player left the match"),
  endLastLeft: (who) => t("only {who} was left in", { who }),

  // ------------------------------------------------------------ the replay
  outAfterEnd: (who, reason, why) =>
    reason === "timeout"
      ? t("{who} ran out of time after the match was already over: {why}", { who, why })
      : t("{who} resigned after the match was already over: {why}", { who, why }),
  outTwice: (who) => t("{who} went out twice", { who }),
  timeoutNotDue: (who, due) =>
    t("{who} timed out, but no move of theirs was due: it was {due}'s turn", { who, due }),
  throwAfterEnd: (n, why) => t("throw {throw}: the match was already over ({why})", { throw: n + 1, why }),
  neverCovered: (n, pending) =>
    t("throw {throw}: throw {pending} was never covered, yet play went on", { throw: n + 1, pending: pending + 1 }),
  outOfOrder: (due, n) =>
    t("throws are out of order: throw {due} was due, the record has throw {throw}", { due: due + 1, throw: n + 1 }),
  wrongSeat: (n, who, due, round) =>
    t("throw {throw}: {who} threw, but it was {due}'s turn (round {round})", { throw: n + 1, who, due, round }),
  oneDieNotAllowed: (n) =>
    t("throw {throw}: one die was thrown, but one die is allowed only in Classic once 7, 8 and 9 are covered", {
      throw: n + 1,
    }),
  botDiceCount: (n, who, strength, want, count) =>
    tn(
      "throw {throw}: {who}, a bot that plays by the rule “{rule}”, throws {n} die here, not {count}",
      "throw {throw}: {who}, a bot that plays by the rule “{rule}”, throws {n} dice here, not {count}",
      want,
      { throw: n + 1, who, rule: strengthName(strength), count },
    ),
  unfairDice: (n, dice, fair) =>
    t("throw {throw}: the record shows the dice {dice}, but the seeds give {fair}, so the dice were changed", {
      throw: n + 1,
      dice: andList(dice),
      fair: andList(fair),
    }),
  nullCoverOnDead: (n) =>
    t("throw {throw}: nothing could be covered, so the turn ended there, yet the record leaves the throw waiting for a cover", {
      throw: n + 1,
    }),
  notDead: (n, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: the record says nothing could be covered, but {offer}", { throw: n + 1, offer: what });
  },
  coverOnDead: (n, cover, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: the record covers {cover}, but {offer}, so nothing could be covered and the turn should have ended", {
      throw: n + 1,
      cover: andList(cover),
      offer: what,
    });
  },
  notOnOffer: (n, cover, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: covering {cover} was not allowed: {offer}", { throw: n + 1, cover: andList(cover), offer: what });
  },
  botCover: (n, who, strength, choice, cover, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: {who}, a bot that plays by the rule “{rule}”, covers {choice} here, not {cover} ({offer})", {
      throw: n + 1,
      who,
      rule: strengthName(strength),
      choice: andList(choice),
      cover: andList(cover),
      offer: what,
    });
  },

  // ------------------------------------------------------------ how it ended
  soloFinished: () => t("the solo player finished"),
  soloResigned: () => t("the solo player resigned"),
  nobodyWon: () => t("nobody won"),
  won: (name) => t("{name} won", { name }),
  drew: (names) => t("{names} drew for first place", { names: andList(names) }),

  // ------------------------------------------------------------ seeds and seats
  seedUnpublished: () =>
    t("the server seed is not published yet: it is revealed when the match ends, and only then can the throws be checked"),
  seedNotHex: () => t("the server seed in the record is damaged: it should be 64 characters, digits 0-9 and letters a-f"),
  seedMismatch: (hash, commitment) =>
    t("the server seed in the record is not the one promised before the first throw: it does not give the commitment {commitment} shown during the match, but {hash}", {
      hash,
      commitment,
    }),
  badPart: (k, part, who) =>
    who
      ? t("the piece of the client seed from {who} ({part}) is not 1 to 64 letters, digits, _ or -", { part: show(part), who })
      : t("piece {k} of the client seed ({part}) is not 1 to 64 letters, digits, _ or -", { k, part: show(part) }),
  partsCount: (count, humans) => {
    const given = parts(count);
    return tn(
      "the client seed has {parts}, but {n} person played: each person adds one",
      "the client seed has {parts}, but {n} people played: each person adds one",
      humans,
      { parts: given },
    );
  },
  personAfterBots: (who) =>
    t("{who} is a person, yet is listed as taking a seat after a bot: people take their seats first", { who }),
  botAmongPeople: (who) =>
    t("{who} is a bot, yet is listed as taking a seat before a person: bots take theirs after the people", { who }),
  orderNotDrawn: (order, drawn) =>
    t("the order of play in the record ({order}) is not the one the seeds drew ({drawn})", { order, drawn }),
  orderNotJoined: (order, drawn) =>
    t("the order of play in the record ({order}) should be the order the seats were taken ({drawn}), as no person plays in this match", {
      order,
      drawn,
    }),
  strengthNotDrawn: (who, strength, drawn) =>
    t("{who} is listed as a bot that plays by the rule “{rule}”, but the seed draws the rule “{drawn}”", {
      who,
      rule: strengthName(strength),
      drawn: strengthName(drawn),
    }),
  resultButNotOver: (who, round, cover) =>
    cover
      ? t("the record gives a result, but by its moves the match is not over: {who} is still to cover in round {round}", {
          who,
          round,
        })
      : t("the record gives a result, but by its moves the match is not over: {who} is still to throw in round {round}", {
          who,
          round,
        }),
  notOver: (who, round) =>
    t("the server seed is published but the match is not over: {who} is still to play in round {round}", { who, round }),
  noResult: (why) => t("the match ended ({why}), but the record has no result", { why }),
  resultDiffers: (seats, field, theirs, ours) =>
    t("the result in the record is not what the throws give: {what}: {theirs} in the record, {ours} by the throws", {
      what: resultPart(field),
      theirs: resultValue(seats, field, theirs),
      ours: resultValue(seats, field, ours),
    }),
  crashed: (error) => t("the verifier could not finish: {error}", { error }),
  noWebCrypto: () => t("this browser cannot do the checking on this page: it offers no cryptography here (open the page over https)"),

  // ------------------------------------------------------------ what held
  checkRecord: (variant, nSeats) => {
    const s = seats(nSeats);
    return t("The record is complete: a {variant} match with {seats}.", { variant, seats: s });
  },
  checkCommitment: (short) =>
    t("The server seed, published when the match ended, gives the commitment {commitment}… shown from the start, so the server fixed its seed before the first throw and could not change it.", {
      commitment: short,
    }),
  checkClientSeed: (seed, humans) =>
    humans
      ? tn(
          "The {n} person in the match added a piece of their own to the client seed ({seed}), so the server could not pick dice that suit anyone.",
          "Each of the {n} people in the match added a piece of their own to the client seed ({seed}), so the server could not pick dice that suit anyone.",
          humans,
          { seed },
        )
      : t("Nobody in the match is a person, so whoever ran it chose the client seed; it is a valid one."),
  checkOrder: (order, humans) =>
    humans
      ? t("The order of play ({order}) is the one the seeds drew, so nobody chose who throws first.", { order })
      : t("Nobody in the match is a person, so the seats play in the order they were taken, as recorded."),
  botStrength: (who, strength) => `${who}: ${strengthName(strength)}`,
  checkStrengths: (bots) => t("Each bot plays by the rule the seeds drew ({bots}).", { bots: bots.join("; ") }),
  checkThrows: (n) =>
    tn(
      "The {n} throw came in order, each from the player whose turn it was.",
      "All {n} throws came in order, each from the player whose turn it was.",
      n,
    ),
  checkDice: (dice, oneDie) => {
    if (!oneDie) {
      return tn(
        "The {n} die is the one the seeds give: it was not changed.",
        "Every one of the {n} dice is the one the seeds give: none was changed.",
        dice,
      );
    }
    const single = oneDieThrows(oneDie);
    return tn(
      "The {n} die is the one the seeds give: it was not changed ({one_die}, each where the rules allow one die).",
      "Every one of the {n} dice is the one the seeds give: none was changed ({one_die}, each where the rules allow one die).",
      dice,
      { one_die: single },
    );
  },
  checkCovers: (covers, dead) =>
    tn(
      "Each of the {covers} covers was allowed by its throw, and the {n} throw that covered nothing really had nothing to cover.",
      "Each of the {covers} covers was allowed by its throw, and the {n} throws that covered nothing really had nothing to cover.",
      dead,
      { covers },
    ),
  checkBots: (covers, diceChoices) => {
    if (!diceChoices) {
      return tn(
        "Every bot move is the one its strength makes: {n} cover.",
        "Every bot move is the one its strength makes: {n} covers.",
        covers,
      );
    }
    const between = choices(diceChoices);
    return tn(
      "Every bot move is the one its strength makes: {n} cover and {choices} between one die and two.",
      "Every bot move is the one its strength makes: {n} covers and {choices} between one die and two.",
      covers,
      { choices: between },
    );
  },
  wentOut: (who, reason, round) =>
    reason === "timeout"
      ? t("{who} ran out of time in round {round}", { who, round })
      : t("{who} resigned in round {round}", { who, round }),
  checkOuts: (outs) => t("The players who left were dealt with as the rules say: {outs}.", { outs: outs.join("; ") }),
  standing: (who, place, total) => t("{who}: place {place}, total {total}", { who, place, total }),
  checkResult: (nRounds, standings, why) =>
    tn(
      "The result worked out again from the throws is the one in the record: after {n} round, {standings} ({why}).",
      "The result worked out again from the throws is the one in the record: after {n} rounds, {standings} ({why}).",
      nRounds,
      { standings: standings.join("; "), why },
    ),
  replayedBefore: (last) => t("Throws 1 to {last} replayed without a difference before the problem.", { last }),

  // ------------------------------------------------------------ the verdict
  verified: (variant, nSeats, nThrows, nRounds, outcome) => {
    const s = seats(nSeats);
    const th = throws(nThrows);
    const r = rounds(nRounds);
    return t("Verified: a {variant} match of {seats}, {throws} over {rounds}; {outcome}. Every die came from seeds fixed before the first throw.", {
      variant,
      seats: s,
      throws: th,
      rounds: r,
      outcome,
    });
  },
  notVerified: (problem) => t("Not verified: {problem}.", { problem }),
};
