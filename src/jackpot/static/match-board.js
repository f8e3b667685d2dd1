// The match page's board: the nine tiles (open, covered and flipped down, on offer,
// picked, just covered) and the dice of the throw in view (pips: dice.js), or the final
// board once the match is over; under it, a Classic pick's running sum and the sets
// that fit it. Drawn from the state and the page's History; a set's button calls the
// page's cover.
import { showDice } from "./dice.js";
import { W, set } from "./match-words.js";

const total = (d) => d.reduce((a, b) => a + b, 0);
let openedAt = null; // the state's seq when the page opened

/**
 * Draw the board. `can` is the set of tiles a click may pick now, `selected` the
 * Classic pick, `who` the page's seatName and isYou.
 */
export function renderBoard(state, history, selected, can, who) {
  const t = state.turn;
  let open = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  let dice = [];
  let shownN = null; // which throw the dice belong to (two throws may show the same faces)
  let dead = false;
  let justCovered = [];
  const caption = document.getElementById("board-caption");
  caption.hidden = true;
  if (t) {
    open = t.open;
    const b = history.board;
    if (t.dice) { dice = t.dice; shownN = b ? b.n : null; dead = t.options.length === 0; }
    else if (history.lastDead) { dice = history.lastDead.dice; shownN = history.lastDead.n; dead = true; }
    if (b && b.seat === t.seat && !t.dice && !who.isYou(t.seat)) justCovered = b.covered || [];
  } else if (state.status === "finished") {
    const f = history.finalBoard();
    if (f) {
      open = f.open;
      dice = f.dice || [];
      shownN = f.n;
      dead = f.dead;
      justCovered = f.covered || [];
      caption.textContent = W.finalBoard(who.seatName(f.seat), who.isYou(f.seat));
      caption.hidden = false;
    }
  }
  for (const btn of document.querySelectorAll(".tile")) {
    const n = Number(btn.dataset.tile);
    const isOpen = open.includes(n);
    const offered = can.has(n) && isOpen;
    btn.classList.toggle("covered", !isOpen);
    btn.classList.toggle("offered", offered && !selected.has(n));
    btn.classList.toggle("selected", selected.has(n));
    btn.classList.toggle("just", justCovered.includes(n));
    btn.disabled = !offered;
    btn.setAttribute("aria-label", W.tileLabel(n, isOpen, offered, selected.has(n)));
  }
  // Tiles flip down as they are covered, not all at once while the page opens.
  if (openedAt === null) openedAt = state.seq;
  document.getElementById("board").classList.toggle("opening", state.seq <= openedAt);
  const diceEl = document.getElementById("dice");
  diceEl.dataset.throw = shownN === null || shownN === undefined ? "" : String(shownN);
  // Drawn again only when they change; they roll in for a throw made while the page is
  // open (the state has moved past the one it opened with), never for the history.
  const shown = `${diceEl.dataset.throw}|${dice.join(",")}`;
  const key = `${shown}|${dead}`;
  const before = diceEl.dataset.key || "";
  if (before === key) return;
  const roll = state.seq > openedAt && dice.length > 0 && !before.startsWith(`${shown}|`);
  diceEl.dataset.key = key;
  showDice(diceEl, dice, W.dieLabel, { dead, roll });
}

/**
 * Classic, while the player picks: the running sum, Clear, and a button for each set
 * that still fits the pick. `turn` is null when nobody picks here now.
 */
export function renderPicking(turn, selected, fits, cover) {
  document.getElementById("picking").hidden = !turn;
  const optEl = document.getElementById("options");
  optEl.textContent = "";
  if (!turn) return;
  const picked = [...selected].sort((a, b) => a - b);
  const sumEl = document.getElementById("pick-sum");
  sumEl.textContent = W.pickSum(total(picked), total(turn.dice));
  sumEl.setAttribute("aria-label", W.pickSumLabel(picked, total(picked), total(turn.dice)));
  document.getElementById("pick-clear").hidden = picked.length === 0;
  const label = document.createElement("span");
  label.textContent = W.coverLabel;
  optEl.append(label);
  for (const o of turn.options.filter(fits)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option";
    b.textContent = set(o);
    b.addEventListener("click", () => cover(o));
    optEl.append(b);
  }
}
