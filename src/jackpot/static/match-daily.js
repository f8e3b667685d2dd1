// A daily entry on the match page: its head line ("Turn 3 of 10"), its score so far,
// its result with the place on the day's board and par once the day has closed, and a
// share text that gives nothing away about the dice (one mark per turn). match.js
// calls these when the state says "daily"; the words are match-words-daily.js's.
import { copyButton } from "./copy-field.js";
import { D } from "./match-words-daily.js";
import { formatNumber } from "./i18n.js";

/** One mark per turn: a jackpot, a low score, a higher one, a turn never played. */
export function marks(scores) {
  return scores.map((s) => (s === 0 ? "🟩" : s === 45 ? "⬛" : s <= 9 ? "🟨" : "⬜")).join("");
}

/** "Jackpot daily 2026-12-06 · 1 jackpot · 143", then the marks. */
export function shareText(variant, day, result) {
  const head = [D.shareHead(variant, day), D.shareResult(result.jackpots), String(result.total)];
  return `${head.join(" · ")}\n${marks(result.turn_scores)}`;
}

export function headLine(state) {
  return D.turnHead(state.daily.turn, state.daily.turns);
}

export function renderScore(state, el) {
  const shown = state.status === "playing";
  el.hidden = !shown;
  if (shown) el.textContent = D.soFar(state.daily.jackpots, state.seats[0].total);
}

/** The result's heading and its turns, drawn again only when it changed. */
export function renderDailyResult(state, el) {
  if (state.status !== "finished" || !state.result) { el.hidden = true; return; }
  el.hidden = false;
  const r = state.result;
  const out = state.seats[0].out;
  const key = JSON.stringify([r, out]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.textContent = "";
  const h = document.createElement("h2");
  h.textContent = out === "resigned" ? D.gaveUp(r.jackpots, r.total)
    : out === "timeout" ? D.dayClosed(r.jackpots, r.total) : D.finished(r.jackpots, r.total);
  const p = document.createElement("p");
  p.textContent = D.turnScores(r.turn_scores.map((s) => formatNumber(s)));
  el.append(h, p);
}

let standingFor = null;
/** Under a finished entry: its place on the day's board (so far, or final with par),
 * and the share text with its Copy button. Asked of the board once per result. */
export async function renderStanding(state, box) {
  if (state.status !== "finished" || !state.result) return;
  const share = box.querySelector("#share-text");
  share.value = shareText(state.variant, state.daily.date, state.result);
  const key = `${state.id}:${state.seq}`;
  if (standingFor === key) return;
  standingFor = key;
  try {
    const resp = await fetch(`/api/daily/${state.daily.date}/${state.variant}?limit=1`, { credentials: "same-origin" });
    if (!resp.ok) return;
    const board = await resp.json();
    const you = board.you;
    const lines = [];
    if (you && you.place) {
      lines.push(board.closed ? D.placeFinal(you.place, board.count) : D.placeSoFar(you.place, board.count));
    }
    if (board.par) lines.push(D.par(board.par.jackpots, board.par.total));
    if (you && you.versus_par) lines.push(D.versus(you.versus_par.standing));
    box.querySelector("#daily-place").textContent = lines.join(" ");
  } catch { /* the place shows on the daily page too */ }
}

/** The Copy button of the share box (the text stays selectable without scripts). */
export function setUpShare() {
  const field = document.getElementById("share-text");
  const button = document.getElementById("share-copy");
  const status = document.getElementById("share-status");
  if (!field || !button || !status) return;
  copyButton(field, button, status, D);
}
