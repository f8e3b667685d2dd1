// Every sentence the verifier (verify.js) reports, in one place, each through the catalog
// (t, tn from i18n.js), so the Verify page reads in the page's language and a
// translation has one place to cover. Outside a page (node, the tests) it is English.
//
// A throw is named as the match page and the replay name it, counting from 1: the
// record's n counts from 0 (the dice derive from it), so sentences show n + 1.
//
// Babel's extractor does not see a t() nested in another call's arguments, so a piece
// that goes into a sentence is worked out first, by its own call, and passed in.
import { andList, orList, strengthName, t, tn } from "./i18n.js";

/** A list of numbers as the record writes it: [1, 2, 3]. */
export const list = (a) => `[${a.join(", ")}]`;
const show = (v) => JSON.stringify(v);

// Counted nouns, each language's form for the count; sentences put them in.
const seats = (n) => tn("{n} seat", "{n} seats", n);
const events = (n) => tn("{n} event", "{n} events", n);
const throws = (n) => tn("{n} throw", "{n} throws", n);
const rounds = (n) => tn("{n} round", "{n} rounds", n);
const parts = (n) => tn("{n} part", "{n} parts", n);
const oneDieThrows = (n) => tn("{n} one-die throw", "{n} one-die throws", n);
const choices = (n) => tn("{n} choice", "{n} choices", n);
const classic = () => t("Classic");
const jackpot = () => t("Jackpot");
const resigned = () => t("resigned");
const timeout = () => t("timeout");

const seatOnly = (seat) => t("seat {seat}", { seat });
const seatNamed = (seat, name) => t("seat {seat} ({name})", { seat, name });
const reasonWord = (reason) => (reason === "timeout" ? timeout() : resigned());

function offer(dice, opts, open) {
  const thrown = andList(dice);
  const tiles = list(open);
  if (!opts.length) return t("the dice {dice} reach nothing among the open tiles {tiles}", { dice: thrown, tiles });
  const reach = orList(opts.map((o) => (o.length === 1 ? String(o[0]) : `{${o.join(", ")}}`)));
  return t("the dice {dice} reach {options} among the open tiles {tiles}", { dice: thrown, options: reach, tiles });
}

export const V = {
  variant: (v) => (v === "classic" ? classic() : jackpot()),
  /** "seat 2 (Ana)", or "seat 2" for a seat without a name. */
  seat: (s, name) => (name ? seatNamed(s, name) : seatOnly(s)),
  seatName: (s, name) => name || seatOnly(s),

  // ------------------------------------------------------------ the record's shape
  notObject: () => t("the record is not a JSON object"),
  notJson: (error) => t("the record is not valid JSON ({error})", { error }),
  badFormat: (given, formats) =>
    t("the format is {given}, not {formats}", { given: show(given), formats: orList(formats.map(show)) }),
  badVariant: (given) => t('the variant is {given}: it must be "jackpot" or "classic"', { given: show(given) }),
  badSeats: () => t("seats must be a list of 1 to 4 seats"),
  noName: (seat) => t("seat {seat} has no name", { seat }),
  badBot: (seat, given) =>
    t('seat {seat}\'s bot is {given}: it must be null, "lowest", "highest" or "best"', { seat, given: show(given) }),
  badJoined: (last, given) =>
    t('"joined" must list each joining index 0 to {last} once, one per seat; it is {given}', {
      last,
      given: show(given),
    }),
  joinedInV1: (format, other) => t('a {format} has no "joined" (that is {other})', { format, other }),
  badCommitment: () => t("the commitment is not 64 lowercase hex characters"),
  noClientSeed: () => t("the client seed is missing"),
  noEvents: () => t("events must be a list"),
  eventNotObject: (event) => t("event {event} is not an object", { event }),
  throwWithoutN: (event) => t("event {event}: a throw needs its number n", { event }),
  throwSeatNaN: (n) => t("throw {throw}: the seat is not a number", { throw: n + 1 }),
  badDiceCount: (n) => t("throw {throw}: dice must be a list of one or two dice", { throw: n + 1 }),
  badDiceValues: (n, dice) =>
    t("throw {throw}: dice {dice} are not values from 1 to 6", { throw: n + 1, dice: show(dice) }),
  badCover: (n) => t("throw {throw}: cover must be a list of tiles or null", { throw: n + 1 }),
  outWithoutSeat: (event) => t("event {event}: an out needs its seat", { event }),
  badReason: (event, given) =>
    t('event {event}: the reason {given} is neither "resigned" nor "timeout"', { event, given: show(given) }),
  unknownType: (event, given) => t("event {event} has the unknown type {given}", { event, given: show(given) }),
  noSuchSeat: (event, seat, n) =>
    tn("event {event} names seat {seat}, but the match has {n} seat", "event {event} names seat {seat}, but the match has {n} seats", n, {
      event,
      seat,
    }),
  resultNotObject: () => t("the result is not an object"),
  resultNoList: (field) => t('the result has no list "{field}"', { field }),
  resultNoRounds: () => t('the result has no number "rounds"'),

  // ------------------------------------------------------------ why the match ended
  endShutClassic: (seat) => t("seat {seat} shut the box in Classic, which wins at once", { seat }),
  endClassicRound: () => t("Classic is one round and every seat still in had its turn"),
  endShutRound: (round) => t("the box was shut in round {round} and the round is over", { round }),
  endSoloOut: () => t("the solo seat went out"),
  endLastLeft: (seat) => t("only seat {seat} was left in", { seat }),

  // ------------------------------------------------------------ the replay
  outAfterEnd: (who, reason, why) =>
    t("{who} went out ({reason}) after the match was already over: {why}", { who, reason: reasonWord(reason), why }),
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
      "throw {throw}: {who}'s {strength} bot throws {n} die here, not {count}",
      "throw {throw}: {who}'s {strength} bot throws {n} dice here, not {count}",
      want,
      { throw: n + 1, who, strength: strengthName(strength), count },
    ),
  unfairDice: (n, dice, fair) =>
    t("throw {throw}: dice {dice} differ from the seed's {fair}", { throw: n + 1, dice: list(dice), fair: list(fair) }),
  nullCoverOnDead: (n) =>
    t("throw {throw}: nothing was on offer, so the turn ended there: cover should be [], not null", { throw: n + 1 }),
  notDead: (n, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: marked as a dead throw (cover []), but {offer}", { throw: n + 1, offer: what });
  },
  coverOnDead: (n, cover, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: cover {cover}, but {offer}: it should be a dead throw (cover [])", {
      throw: n + 1,
      cover: list(cover),
      offer: what,
    });
  },
  notOnOffer: (n, cover, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: cover {cover} is not on offer: {offer}", { throw: n + 1, cover: list(cover), offer: what });
  },
  botCover: (n, who, strength, choice, cover, dice, opts, open) => {
    const what = offer(dice, opts, open);
    return t("throw {throw}: {who}'s {strength} bot covers {choice} here, not {cover} ({offer})", {
      throw: n + 1,
      who,
      strength: strengthName(strength),
      choice: list(choice),
      cover: list(cover),
      offer: what,
    });
  },

  // ------------------------------------------------------------ how it ended
  soloFinished: () => t("the solo seat finished"),
  soloResigned: () => t("the solo seat resigned"),
  nobodyWon: () => t("nobody won"),
  won: (name) => t("{name} won", { name }),
  drew: (names) => t("{names} drew for first place", { names: andList(names) }),

  // ------------------------------------------------------------ seeds and seats
  seedUnpublished: () =>
    t("the server seed is not published yet: it is revealed when the match ends, and only then can the throws be checked"),
  seedNotHex: () => t("the server seed is not 64 lowercase hex characters"),
  seedMismatch: (hash, commitment) =>
    t("the server seed does not match the commitment: its SHA-256 is {hash}, the commitment shown during the match was {commitment}", {
      hash,
      commitment,
    }),
  badPart: (k, part, who) =>
    who
      ? t('the client seed\'s part {k} ({part}), from {who}, is not 1 to 64 letters, digits, "_" or "-"', {
          k,
          part: show(part),
          who,
        })
      : t('the client seed\'s part {k} ({part}) is not 1 to 64 letters, digits, "_" or "-"', { k, part: show(part) }),
  partsCount: (count, humans) => {
    const given = parts(count);
    return tn(
      "the client seed has {parts}, but the match has {n} human seat: there must be one part for each",
      "the client seed has {parts}, but the match has {n} human seats: there must be one part for each",
      humans,
      { parts: given },
    );
  },
  personAfterBots: (who, index, humans) =>
    tn(
      "{who} is a person with joining index {index}, but the {n} person join first and bots after them",
      "{who} is a person with joining index {index}, but the {n} people join first and bots after them",
      humans,
      { who, index },
    ),
  botAmongPeople: (who, index, humans) =>
    tn(
      "{who} is a bot with joining index {index}, but the {n} person join first and bots after them",
      "{who} is a bot with joining index {index}, but the {n} people join first and bots after them",
      humans,
      { who, index },
    ),
  orderNotDrawn: (order, drawn) =>
    t("the order of play {order} (joining index of each seat) differs from the seed's draw {drawn}", {
      order: list(order),
      drawn: list(drawn),
    }),
  orderNotJoined: (order, drawn) =>
    t("the order of play {order} should be the joining order {drawn}: no person sits at this match", {
      order: list(order),
      drawn: list(drawn),
    }),
  strengthNotDrawn: (who, strength, drawn) =>
    t("{who} is listed as a {strength} bot, but the seed draws {drawn}", {
      who,
      strength: strengthName(strength),
      drawn: strengthName(drawn),
    }),
  resultButNotOver: (who, round, cover) =>
    cover
      ? t("the record gives a result, but by its events the match is not over: {who} is still to cover in round {round}", {
          who,
          round,
        })
      : t("the record gives a result, but by its events the match is not over: {who} is still to throw in round {round}", {
          who,
          round,
        }),
  notOver: (who, round) =>
    t("the server seed is published but the match is not over: {who} is still to play in round {round}", { who, round }),
  noResult: (why) => t("the match ended ({why}), but the record has no result", { why }),
  resultDiffers: (field, theirs, ours) =>
    t("result: {field} {theirs} differ from the replay's {ours}", { field, theirs, ours }),
  crashed: (error) => t("the verifier could not finish: {error}", { error }),
  noWebCrypto: () => t("this browser offers no WebCrypto (crypto.subtle); open the page over https"),

  // ------------------------------------------------------------ what held
  checkRecord: (format, variant, nSeats, nEvents) => {
    const s = seats(nSeats);
    const e = events(nEvents);
    return t("The record is a {format} of a {variant} match with {seats} and {events}.", {
      format,
      variant,
      seats: s,
      events: e,
    });
  },
  checkCommitment: (short) =>
    t("The published server seed hashes (SHA-256) to the commitment {commitment}…, so it was fixed before the first throw.", {
      commitment: short,
    }),
  checkClientSeed: (seed, humans) =>
    humans
      ? tn(
          'The client seed "{seed}" has one well-formed part for each of the {n} human seat, so the players took part in every throw.',
          'The client seed "{seed}" has one well-formed part for each of the {n} human seats, so the players took part in every throw.',
          humans,
          { seed },
        )
      : t("No seat is human, so anyone could choose the client seed; it is well-formed."),
  checkOrder: (order, humans) =>
    humans
      ? t("The order of play {order} (joining index of each seat) is the one the seed draws, so nobody chose who throws first.", {
          order: list(order),
        })
      : t("Nobody is a person, so the seats play in the order they joined, as recorded."),
  botStrength: (seat, strength) => t("seat {seat} {strength}", { seat, strength: strengthName(strength) }),
  checkStrengths: (bots) => t("The bots' strengths are the ones the seed draws ({bots}).", { bots: bots.join(", ") }),
  checkThrows: (n) =>
    tn(
      "All {n} throw are numbered in order from 0 and each was made by the seat whose turn it was.",
      "All {n} throws are numbered in order from 0 and each was made by the seat whose turn it was.",
      n,
    ),
  checkDice: (dice, oneDie) => {
    if (!oneDie) {
      return tn("Every one of the {n} die is the one the seed gives.", "Every one of the {n} dice is the one the seed gives.", dice);
    }
    const single = oneDieThrows(oneDie);
    return tn(
      "Every one of the {n} die is the one the seed gives ({one_die}, each allowed where it was made).",
      "Every one of the {n} dice is the one the seed gives ({one_die}, each allowed where it was made).",
      dice,
      { one_die: single },
    );
  },
  checkCovers: (covers, dead) =>
    tn(
      "Every cover ({covers}) is a legal option of its throw, and the {n} dead throw offered nothing to cover.",
      "Every cover ({covers}) is a legal option of its throw, and the {n} dead throws offered nothing to cover.",
      dead,
      { covers },
    ),
  checkBots: (covers, diceChoices) => {
    if (!diceChoices) {
      return tn("Every bot choice is its strength's: {n} cover.", "Every bot choice is its strength's: {n} covers.", covers);
    }
    const between = choices(diceChoices);
    return tn(
      "Every bot choice is its strength's: {n} cover and {choices} between one die and two.",
      "Every bot choice is its strength's: {n} covers and {choices} between one die and two.",
      covers,
      { choices: between },
    );
  },
  wentOut: (who, reason, round) =>
    reason === "timeout"
      ? t("{who} timed out in round {round}", { who, round })
      : t("{who} resigned in round {round}", { who, round }),
  checkOuts: (outs) => t("The seats that went out were dealt with as the rules say: {outs}.", { outs: outs.join("; ") }),
  checkResult: (result, why) =>
    tn(
      "The result recomputed from the throws matches the record: {n} round, totals {totals}, places {places}, winners {winners} ({why}).",
      "The result recomputed from the throws matches the record: {n} rounds, totals {totals}, places {places}, winners {winners} ({why}).",
      result.rounds,
      { totals: list(result.totals), places: list(result.places), winners: list(result.winners), why },
    ),
  replayedBefore: (last) => t("Throws 1 to {last} replayed without a difference before the problem.", { last }),

  // ------------------------------------------------------------ the verdict
  verified: (variant, nSeats, nThrows, nRounds, outcome) => {
    const s = seats(nSeats);
    const th = throws(nThrows);
    const r = rounds(nRounds);
    return t("Verified: a {variant} match of {seats}, {throws} over {rounds}; {outcome}. Every throw came from the committed seed.", {
      variant,
      seats: s,
      throws: th,
      rounds: r,
      outcome,
    });
  },
  notVerified: (problem) => t("Not verified: {problem}.", { problem }),
};
