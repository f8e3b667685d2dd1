// Every sentence the match page shows or says, in one place, each through the
// catalog (t, tn from i18n.js). Functions take what varies; nothing here touches the page.
import { andList, orList, shownName, strengthName, t, tn } from "./i18n.js";

export const dice = (d) => andList(d);
export const set = (o) => o.join(" + ");
const options = (opts) => orList(opts.map(set));

export const W = {
  seat: (i) => t("Seat {n}", { n: i + 1 }),
  you: t("You"),
  youMark: t(" (you)"),
  freeSeat: t("free seat"),
  runningTotal: t("running total"),
  noTurn: t("did not get a turn"),
  outTime: t("out: time"),
  outResigned: t("resigned"),
  strength: (s) => t("rule: {rule}", { rule: strengthName(s) }),
  strengthSecret: t("rule: secret"),
  strengthSecretTitle: t("A computer player. The rule it plays by comes from the match's seed and is shown when the match ends."),
  bot: t("bot"),
  botTitle: t("A computer player."),
  strengthTitle: (s) =>
    ({
      lowest: t("This bot always covers the lowest tile it can."),
      highest: t("This bot always covers the highest tile it can."),
      best: t("This bot plays the best move, worked out exactly."),
    })[s] || t("A computer player."),

  // the head line
  waitingHead: t("Waiting for players"),
  calledOffHead: t("Called off"),
  finishedHead: (rounds) => tn("Over after {n} round", "Over after {n} rounds", rounds),
  roundHead: (n) => t("Round {n}", { n }),

  // the status line
  waitingFor: (free) =>
    tn(
      "Waiting for {n} more player. Share this page's address to invite someone.",
      "Waiting for {n} more players. Share this page's address to invite someone.",
      free,
    ),
  // What a visitor without a seat reads: the invitation is not theirs to send.
  waitingSeat: (free) =>
    tn("Waiting for {n} more player: take the free seat to play.", "Waiting for {n} more players: take a free seat to play.", free),
  // ... and one who needs an account first, which the seat form says.
  waitingOthers: (free) => tn("Waiting for {n} more player.", "Waiting for {n} more players.", free),
  yourThrowOneDie: t("Your throw. The 7, 8 and 9 are covered, so you may throw one die (key 1) or two (Space)."),
  yourThrow: t("Your throw. Press Throw (or Space)."),
  // On a touch screen (no keys to name).
  yourThrowOneDieTouch: t("Your throw. The 7, 8 and 9 are covered, so you may throw one die or two."),
  yourThrowTouch: t("Your throw. Tap Throw."),
  classicPick: (d, total) =>
    t("You threw {dice}: pick tiles adding up to {total}, or choose a set below.", { dice: dice(d), total }),
  jackpotPick: (d, opts) =>
    opts.length === 1
      ? t("You threw {dice}. Cover {tiles}.", { dice: dice(d), tiles: set(opts[0]) })
      : t("You threw {dice}. Cover one of: {options}.", { dice: dice(d), options: options(opts) }),
  toThrow: (who) => t("{name} to throw.", { name: who }),
  choosing: (who, d) => t("{name} threw {dice} and is choosing.", { name: who, dice: dice(d) }),
  youAreOut: (reason) =>
    reason === "timeout"
      ? t("You are out (your time ran out); the match goes on without you.")
      : t("You are out (you resigned); the match goes on without you."),
  calledOff: t("This match was called off before it started."),

  // dead throws
  // The reader's own moves have their own sentences: several languages bend the verb.
  deadNotice: (who, you, d, solo) => {
    const v = { name: who, dice: dice(d) };
    if (you) {
      return solo ? t("You threw {dice}: nothing reachable is open, so the turn ends.", v)
        : t("You threw {dice}: nothing reachable is open, so the turn passes.", v);
    }
    return solo ? t("{name} threw {dice}: nothing reachable is open, so the turn ends.", v)
      : t("{name} threw {dice}: nothing reachable is open, so the turn passes.", v);
  },

  // Classic: picking a set tile by tile
  pickSum: (sum, total) => t("{sum} of {total}", { sum, total }),
  pickSumLabel: (picked, sum, total) =>
    t("Picked {tiles}: {sum} of {total}.", { tiles: andList(picked), sum, total }),
  // said (once the player pauses) as tiles are picked and put back
  pickNone: (total) => t("Nothing picked: pick tiles adding up to {total}.", { total }),
  pickSay: (picked, sum, total, left, rest) =>
    t("Picked {tiles}: {sum} of {total}. {left} to go: add {rest}.", {
      tiles: andList(picked),
      sum,
      total,
      left,
      rest: orList(rest.map(set)),
    }),
  cannotJoin: (n, picked, total) =>
    picked.length
      ? t("{tile} cannot go with {picked}: no set of open tiles that adds up to {total} holds them all.", {
          tile: n,
          picked: set(picked),
          total,
        })
      : t("{tile} is in no set of open tiles that adds up to {total}.", { tile: n, total }),
  notOpen: (n) => t("{tile} is already covered.", { tile: n }),
  coverLabel: t("Cover: "),

  // the deadline
  deadline: (you, who, left) =>
    you ? t("You have {time} left", { time: left }) : t("{name} has {time} left", { name: who, time: left }),
  timeUp: (you, who) => (you ? t("Your time is up") : t("{name}'s time is up", { name: who })),
  // said once when the player's own time is nearly up: seconds under a minute, else the clock
  nearlyUp: (seconds, left) =>
    seconds < 60
      ? tn("Time is nearly up: {n} second left for your move", "Time is nearly up: {n} seconds left for your move", seconds)
      : t("Time is nearly up: {time} left for your move", { time: left }),

  // the controls
  throwTwo: t("Throw two dice"),
  throwBtn: t("Throw"),
  skip: (n) => tn("Skip to now ({n} step to show)", "Skip to now ({n} steps to show)", n),
  resign: t("Resign"),
  resignQ: t("Resign and leave the match? You will be placed last."),
  resignYes: t("Yes, resign"),
  callOff: t("Call the match off"),
  callOffQ: t("Call the match off? Nobody has thrown yet; the match is cancelled for everyone."),
  callOffYes: t("Yes, call it off"),
  leave: t("Leave this match"),
  leaveQ: t("Leave this match? Your seat becomes free for someone else."),
  leaveYes: t("Yes, leave"),
  keepPlaying: t("No, keep playing"),
  keepWaiting: t("No, stay"),

  // tiles and dice for screen readers
  tileLabel: (n, open, offered, picked) =>
    !open ? t("tile {n}, covered", { n })
      : picked ? t("tile {n}, picked", { n })
        : offered ? t("tile {n}, on offer", { n }) : t("tile {n}", { n }),
  dieLabel: (d) => t("die showing {d}", { d }),
  finalBoard: (who, you) =>
    you ? t("The final board: your last turn.") : t("The final board: {name}'s last turn.", { name: who }),
  // Between two turns, before the next one's first throw.
  turnEnded: (who, you) =>
    you
      ? t("The board as your turn ended. The next turn starts with all nine tiles open.")
      : t("The board as {name}'s turn ended. The next turn starts with all nine tiles open.", { name: who }),

  // the log (and what the live region says)
  logThrow: (who, you, d) =>
    you ? t("You threw {dice}", { dice: dice(d) }) : t("{name} threw {dice}", { name: who, dice: dice(d) }),
  // Autoplay made the move for the reader (forced moves: no choice in them).
  thrownForYou: t("thrown for you"),
  coveredForYou: t("covered for you"),
  madeForYou: (line, marks) => t("{line} ({marks})", { line, marks: marks.join(", ") }),
  logCover: (who, you, d, o) =>
    you ? t("You threw {dice} and covered {tiles}", { dice: dice(d), tiles: set(o) })
      : t("{name} threw {dice} and covered {tiles}", { name: who, dice: dice(d), tiles: set(o) }),
  logDead: (who, you, d, solo) => {
    const v = { name: who, dice: dice(d) };
    if (you) {
      return solo ? t("You threw {dice}: nothing reachable, the turn ends", v)
        : t("You threw {dice}: nothing reachable, the turn passes", v);
    }
    return solo ? t("{name} threw {dice}: nothing reachable, the turn ends", v)
      : t("{name} threw {dice}: nothing reachable, the turn passes", v);
  },
  // A turn's score is a number of points: counted, so each language picks its form.
  logScore: (who, you, score, total) =>
    you
      ? tn("You score {n} point this turn (total {total})", "You score {n} points this turn (total {total})", score, {
          total,
        })
      : tn("{name} scores {n} point this turn (total {total})", "{name} scores {n} points this turn (total {total})", score, {
          name: who,
          total,
        }),
  logJackpot: (who, you, throws) =>
    you
      ? tn("You shut the box in {n} throw: a jackpot!", "You shut the box in {n} throws: a jackpot!", throws)
      : tn("{name} shut the box in {n} throw: a jackpot!", "{name} shut the box in {n} throws: a jackpot!", throws, {
          name: who,
        }),
  logOut: (who, you, reason) =>
    reason !== "timeout"
      ? you ? t("You resigned") : t("{name} resigned", { name: who })
      : you ? t("You ran out of time and are out") : t("{name} ran out of time and is out", { name: who }),
  // A missed deadline that cost a spare: the deadline starts again.
  logSpare: (who, you, left) =>
    you
      ? tn("You missed the deadline and used a spare, {n} left", "You missed the deadline and used a spare, {n} left", left)
      : tn("{name} missed the deadline and used a spare, {n} left", "{name} missed the deadline and used a spare, {n} left", left, { name: who }),
  sparesLeft: (n) => tn("{n} spare deadline left", "{n} spare deadlines left", n),
  sparesLeftTitle: t("A missed deadline uses a spare and the deadline starts again; with none left, the player is out."),
  // Seats are counted in the order of play once it is drawn: before the start a
  // seat's number would name a place nobody will play in.
  logJoined: (name) => t("{name} took a seat", { name: shownName(name) }),
  logLeft: t("A seat is free again"),
  logStarted: t("Every seat is taken: the match starts"),
  logStartedAlone: t("You play alone: the first throw is yours"),
  logOrderDrawn: (who, you) =>
    you ? t("The seeds drew the order of play: you throw first")
      : t("The seeds drew the order of play: {name} throws first", { name: who }),
  logOver: t("The match is over"),
  logCancelled: t("The match was called off"),
  throwNo: (n) => t("Throw {n}", { n: n + 1 }),

  sayThrow: (who, you, d, opts) => {
    const v = { name: who, dice: dice(d), options: options(opts) };
    if (you) {
      return !opts.length ? t("You threw {dice}.", v)
        : opts.length === 1 ? t("You threw {dice}. Only {options}.", v) : t("You threw {dice}. Can cover {options}.", v);
    }
    return !opts.length ? t("{name} threw {dice}.", v)
      : opts.length === 1 ? t("{name} threw {dice}. Only {options}.", v) : t("{name} threw {dice}. Can cover {options}.", v);
  },
  sayCover: (who, you, o) =>
    you ? t("You covered {tiles}.", { tiles: set(o) }) : t("{name} covered {tiles}.", { name: who, tiles: set(o) }),
  sayYourTurn: t("Your turn."),
  sayTurn: (who) => t("{name}'s turn.", { name: who }),

  // said once when the page opens: the latest moves (log lines) before where it stands
  sinceYourMove: (moves) => t("Since your last move: {moves}.", { moves: moves.join("; ") }),
  sinceYourMoveLatest: (n, moves) =>
    tn("Since your last move, {n} throw; the latest: {moves}.", "Since your last move, {n} throws; the latest: {moves}.", n, {
      moves: moves.join("; "),
    }),
  soFar: (moves) => t("So far: {moves}.", { moves: moves.join("; ") }),
  soFarLatest: (n, moves) =>
    tn("So far, {n} throw; the latest: {moves}.", "So far, {n} throws; the latest: {moves}.", n, { moves: moves.join("; ") }),

  // the result
  practiceShut: (throws) =>
    tn("Practice over: you shut the box in {n} throw!", "Practice over: you shut the box in {n} throws!", throws),
  practiceScore: (total) =>
    tn("Practice over: you scored {n} point", "Practice over: you scored {n} points", total),
  matchOver: t("Match over"),
  youShare: t("A draw: you share the win"),
  youWin: t("You win!"),
  drawBetween: (names) => t("A draw between {names}", { names: andList(names) }),
  wins: (who) => t("{name} wins", { name: who }),
  // A seat that left the match has no total worth showing: one who resigned before
  // throwing would read "total 0", the best score at the table. Nor has one that never
  // threw (in Classic, a seat after the one who shut the box).
  placeLine: (place, who, total, shut, out, noTurn) => {
    let line = out
      ? t("Place {place}: {name}", { place, name: who })
      : noTurn
        ? t("Place {place}: {name}, did not get a turn", { place, name: who })
        : t("Place {place}: {name}, total {total}", { place, name: who, total });
    if (shut !== null) line += tn(", shut the box in {n} throw", ", shut the box in {n} throws", shut);
    if (out === "resigned") line += t(", resigned");
    if (out === "timeout") line += t(", ran out of time");
    return line;
  },
  roundsPlayed: (n) => t("Rounds played: {n}.", { n }),
  turnsPlayed: (n) => tn("It took you {n} turn.", "It took you {n} turns.", n),

  errorGeneric: t("That did not work."),
  errorNetwork: t("Could not reach the server; check your connection."),
  // The prefix is notify.js's too: it knows the title by it.
  title: (mine, variant) =>
    (mine ? t("(Your throw) ") : "") +
    t("{variant} match · peer2peergames", { variant: variant === "classic" ? t("Classic") : t("Jackpot") }),
  fixedLater: t("fixed when every seat is taken"),
};
