// What the page plays out when it opens, and the board between two turns.
//
// A bot drawn to throw first has played its whole turn before the page loads (bots
// move on the server at once). So when the reader's only opponents are bots and the
// reader has not moved yet, the moves since the start are played out on arrival as
// if they came live, from the position right after the start: the bot's opening turn
// is seen throw by throw, and a match the bot won on it shows that turn before the
// result. The server counted that playback into the reader's first deadline.
import { paced } from "./match-playback.js";
import { renderBoard } from "./match-board.js";
import { W } from "./match-words.js";

const FULL = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const MOVES = ["thrown", "covered", "seat_out"];
/** The matches whose opening this browser has played out: each is shown once, so a
 * person coming back to a match they did not get to throw in sees where it stands. */
const SEEN_KEY = "jackpot.openingSeen";
const SEEN_KEPT = 100;

function seenOpenings() {
  try {
    const kept = JSON.parse(localStorage.getItem(SEEN_KEY) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

/** Whether this browser has played out the opening of match `id` already. */
export function openingSeen(id) {
  return seenOpenings().includes(id);
}

/** Note that the opening of match `id` is being played out here. */
export function markOpeningSeen(id) {
  try {
    const kept = seenOpenings().filter((x) => x !== id);
    kept.push(id);
    localStorage.setItem(SEEN_KEY, JSON.stringify(kept.slice(-SEEN_KEPT)));
  } catch { /* no storage: it plays again next time */ }
}

/**
 * `state` is the page's state, `past` the match's events up to it, `me` the reader's
 * seat (-1: a visitor). Returns {first, before, replay}: the state right after the
 * start, the events up to the start (history) and the ones to play out; or null.
 */
export function openingPlayback(state, past, me) {
  if (me < 0 || !state.seats.every((s, i) => i === me || s.bot) || openingSeen(state.id)) return null;
  const start = past.findIndex((ev) => ev.type === "started");
  if (start < 0) return null;
  const replay = past.slice(start + 1);
  if (replay.some((ev) => MOVES.includes(ev.type) && ev.seat === me)) return null;
  if (!replay.some((ev) => paced(ev, me))) return null;
  return { first: startOf(state, past[start].seq), before: past.slice(0, start + 1), replay };
}

/** The state right after the start of the match `state` shows (its seats, seeds and
 * clock rule as they are): the first seat to throw, nothing thrown. */
export function startOf(state, seq = state.seq) {
  const first = structuredClone(state);
  Object.assign(first, { status: "playing", result: null, server_seed: null, round: 1, seq });
  first.turn = { seat: 0, open: FULL, dice: null, options: [], due_at: null, one_die: false };
  first.seats = first.seats.map((s) => ({ ...s, total: 0, out: null }));
  return first;
}

/**
 * Whether the page may be about to play out the others' opening moves (its events are
 * not in yet): the reader's first turn has not begun, or a match a bot won before it
 * did. The page then shows the start meanwhile, not the end for a moment.
 */
export function mayOpenWithPlayback(state, me) {
  if (me <= 0 || !state.seats.every((s, i) => i === me || s.bot) || openingSeen(state.id)) return false;
  const r = state.result;
  if (r) return r.rounds === 1 && r.totals[me] === 0 && r.shut[me] === null && !state.seats[me].out;
  const t = state.turn;
  return state.status === "playing" && state.round === 1 && t !== null && t.seat === me
    && t.dice === null && t.open.length === 9;
}

/**
 * Between two turns, before the new one's first throw: the board as the last turn
 * ended (its tiles and last dice), not nine open tiles under someone else's dice.
 * Returns the turn's board from the page's History, or null when the board in play
 * should show.
 */
export function endedTurn(state, history) {
  const t = state.turn;
  const last = history.lastPlayed;
  if (!t || t.dice !== null || !last || last.seat === t.seat) return null;
  if (history.board && history.board.throws > 0) return null;
  return last;
}

/** The board in play (match-board.js); between two turns, the board as the last one
 * ended, captioned. `can` is the set of tiles a click may pick now. */
export function drawBoard(state, history, selected, can, who) {
  const ended = endedTurn(state, history);
  if (!ended) { renderBoard(state, history, selected, can, who); return; }
  // Drawn as a finished match's final board, with the caption of a turn that ended.
  renderBoard({ ...state, status: "finished", turn: null }, { finalBoard: () => ended }, selected, new Set(), who);
  document.getElementById("board-caption").textContent = W.turnEnded(who.seatName(ended.seat), who.isYou(ended.seat));
}
