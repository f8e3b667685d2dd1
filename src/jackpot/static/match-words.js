// Every sentence the match page shows or says, in one place so that a translation
// has one file to cover. Functions take what varies; nothing here touches the page.

export const list = (items, and = "or") =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
export const dice = (d) => (d.length === 1 ? `${d[0]}` : `${d[0]} and ${d[1]}`);
export const set = (o) => o.join(" + ");

export const W = {
  seat: (i) => `Seat ${i + 1}`,
  you: "You",
  youMark: " (you)",
  freeSeat: "free seat",
  runningTotal: "running total",
  outTime: "out: time",
  outResigned: "resigned",
  strength: (s) => `strength: ${s}`,
  strengthSecret: "strength: secret",
  strengthSecretTitle: "A computer player. Its strength comes from the match's seed and is shown when the match ends.",
  bot: "bot",
  botTitle: "A computer player.",
  strengths: {
    lowest: "always covers the lowest tile it can",
    highest: "always covers the highest tile it can",
    best: "plays the best move, worked out exactly",
  },
  strengthTitle: (words) => `This bot ${words}.`,

  // the head line
  waitingHead: "Waiting for players",
  calledOffHead: "Called off",
  finishedHead: (rounds) => `Over after ${rounds} round${rounds === 1 ? "" : "s"}`,
  roundHead: (n) => `Round ${n}`,

  // the status line
  waitingFor: (free) => `Waiting for ${free} more player${free === 1 ? "" : "s"}. Share this page's address to invite someone.`,
  yourThrowOneDie: "Your throw. The 7, 8 and 9 are covered, so you may throw one die (key 1) or two (Space).",
  yourThrow: "Your throw. Press Throw (or Space).",
  classicPick: (d, total) => `You threw ${dice(d)}: pick tiles adding up to ${total}, or choose a set below.`,
  jackpotPick: (d, opts) => `You threw ${dice(d)}. Cover one of: ${list(opts.map(set))}.`,
  toThrow: (who) => `${who} to throw.`,
  choosing: (who, d) => `${who} threw ${dice(d)} and is choosing.`,
  youAreOut: (reason) => `You are out (${reason === "timeout" ? "your time ran out" : "you resigned"}); the match goes on without you.`,
  spectator: "You are watching this match.",
  calledOff: "This match was called off before it started.",

  // dead throws
  deadNotice: (who, d, solo) =>
    `${who} threw ${dice(d)}: nothing reachable is open, so ${solo ? "the turn ends" : "the turn passes"}.`,

  // Classic: picking a set tile by tile
  pickSum: (sum, total) => `${sum} of ${total}`,
  pickSumLabel: (picked, sum, total) => `Picked ${list(picked.map(String), "and")}: ${sum} of ${total}.`,
  cannotJoin: (n, picked, total) =>
    picked.length
      ? `${n} cannot go with ${set(picked)}: no set of open tiles that adds up to ${total} holds them all.`
      : `${n} is in no set of open tiles that adds up to ${total}.`,
  notOpen: (n) => `${n} is already covered.`,
  coverLabel: "Cover: ",

  // the deadline
  deadline: (you, who, left) => (left === null ? "" : you ? `You have ${left}` : `${who} has ${left}`),
  timeUp: (you, who) => (you ? "Your time is up" : `${who}'s time is up`),

  // the controls
  throwTwo: "Throw two dice",
  throwBtn: "Throw",
  skip: (n) => `Skip to now (${n} to show)`,
  resign: "Resign",
  resignQ: "Resign and leave the match? You will be placed last.",
  resignYes: "Yes, resign",
  callOff: "Call the match off",
  callOffQ: "Call the match off? Nobody has thrown yet; the match is cancelled for everyone.",
  callOffYes: "Yes, call it off",
  leave: "Leave this match",
  leaveQ: "Leave this match? Your seat becomes free for someone else.",
  leaveYes: "Yes, leave",
  keepPlaying: "No, keep playing",
  keepWaiting: "No, stay",

  // tiles and dice for screen readers
  tileLabel: (n, open, offered, picked) =>
    `tile ${n}${open ? "" : ", covered"}${picked ? ", picked" : offered ? ", on offer" : ""}`,
  dieLabel: (d) => `die showing ${d}`,
  finalBoard: (who) => `The final board: ${who === "You" ? "your" : `${who}'s`} last turn.`,

  // the log (and what the live region says)
  logThrow: (who, d) => `${who} threw ${dice(d)}`,
  logCover: (who, d, o) => `${who} threw ${dice(d)} and covered ${set(o)}`,
  logDead: (who, d, solo) => `${who} threw ${dice(d)}: nothing reachable, ${solo ? "the turn ends" : "the turn passes"}`,
  logScore: (who, you, score, total) => `${who} ${you ? "score" : "scores"} ${score} this turn (total ${total})`,
  logJackpot: (who, throws) => `${who} shut the box in ${throws} throws: a jackpot!`,
  logOut: (who, you, reason) =>
    reason === "timeout" ? `${who} ran out of time and ${you ? "are" : "is"} out` : `${who} resigned`,
  logJoined: (name, seat) => `${name} took seat ${seat + 1}`,
  logLeft: (seat) => `Seat ${seat + 1} is free again`,
  logStarted: "Every seat is taken: the match starts",
  logOver: "The match is over",
  logCancelled: "The match was called off",
  throwNo: (n) => `Throw ${n + 1}`,

  sayThrow: (who, d, opts) =>
    `${who} threw ${dice(d)}.${opts.length ? ` ${opts.length === 1 ? "Only" : "Can cover"} ${list(opts.map(set))}.` : ""}`,
  sayCover: (who, o) => `${who} covered ${set(o)}.`,
  sayYourTurn: "Your turn.",
  sayTurn: (who) => `${who}'s turn.`,

  // the result
  practiceShut: (throws) => `Practice over: you shut the box in ${throws} throws!`,
  practiceScore: (total) => `Practice over: you scored ${total}`,
  matchOver: "Match over",
  youShare: "A draw: you share the win",
  youWin: "You win!",
  drawBetween: (names) => `A draw between ${list(names, "and")}`,
  wins: (who) => `${who} wins`,
  placeLine: (place, who, total, shut, out) =>
    `Place ${place}: ${who}, total ${total}${shut !== null ? `, shut the box in ${shut} throws` : ""}${out === "resigned" ? ", resigned" : out === "timeout" ? ", ran out of time" : ""}`,
  roundsPlayed: (n) => `Rounds played: ${n}.`,
  playAgain: "Play again",

  errorGeneric: "That did not work.",
  errorNetwork: "Could not reach the server; check your connection.",
  title: (mine, variant) => `${mine ? "(Your throw) " : ""}${variant === "classic" ? "Classic" : "Jackpot"} match · peer2peergames`,
  fixedLater: "fixed when every seat is taken",
  sound: "Sound",
};
