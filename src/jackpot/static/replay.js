// Step through a finished match: board, dice, the choice, and what every option
// was worth. All the numbers come from the server (exact values), so this file only
// shows them; it needs no network after the page has loaded. Where a match is at
// stake (data.measure "match") each option also shows its chance to win the match and
// of a draw, and what a choice gave away is measured in winning chance; in practice
// alone ("shut") it is the chance of shutting the box this turn.
import { showDice } from "./dice.js";
import { andList, formatNumber, t } from "./i18n.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
const names = data.names;
const forMatch = data.measure === "match";
const $ = (id) => document.getElementById(id);

const tiles = [...document.querySelectorAll("#replay-tiles .tile")];
const seatItems = [...document.querySelectorAll("#replay-seats li")];
const oddsBody = document.querySelector("#odds tbody");

function tilesText(list) {
  return list.join(" + ");
}

function describe(step) {
  const who = names[step.seat];
  if (step.kind === "out") {
    return step.reason === "resigned"
      ? t("{name} resigned and is out.", { name: who })
      : t("{name} ran out of time and is out.", { name: who });
  }
  const parts = [t("Round {round}: {name} threw {dice}.", { round: step.round, name: who, dice: andList(step.dice) })];
  if (step.cover === null) parts.push(t("Left the match before covering."));
  else if (step.cover.length === 0) parts.push(t("Nothing left to cover."));
  else parts.push(t("Covered {tiles}.", { tiles: tilesText(step.cover) }));
  if (step.turn_score !== null) {
    parts.push(step.shut ? t("Box shut!") : t("Turn over: {score} left open.", { score: step.turn_score }));
  }
  return parts.join(" ");
}

/** The choice of one die or two made before this throw, and what it gave away. */
function diceChoiceText(choice) {
  const mine = choice.options.find((o) => o.dice === choice.chosen);
  const other = choice.options.find((o) => o.dice !== choice.chosen);
  const facts = { lost: choice.given_away_text, kept: mine.equity_text, top: other.equity_text };
  if (choice.given_away === 0) {
    return choice.chosen === 1 ? t("Threw one die: the best choice.") : t("Threw two dice: the best choice.");
  }
  if (forMatch) {
    return choice.chosen === 1
      ? t("Threw one die: gave away {lost} of winning chance (this kept {kept}, two dice {top}).", facts)
      : t("Threw two dice: gave away {lost} of winning chance (this kept {kept}, one die {top}).", facts);
  }
  return choice.chosen === 1
    ? t("Threw one die: gave away {lost} of chance (this kept {kept}, two dice {top}).", facts)
    : t("Threw two dice: gave away {lost} of chance (this kept {kept}, one die {top}).", facts);
}

function same(a, b) {
  return a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]);
}

function show(i, rolled = false) {
  const step = steps[i];
  $("where").textContent = t("Step {step} of {steps}", { step: i + 1, steps: steps.length });
  $("step-text").textContent = describe(step);
  $("first").disabled = $("prev").disabled = i === 0;
  $("next").disabled = $("last").disabled = i === steps.length - 1;

  // The board after this step's choice: a turn's last step shows its final position.
  const open = new Set(step.open_before);
  const chosen = new Set(step.cover || []);
  const best = new Set(step.best || []);
  for (const el of tiles) {
    const n = Number(el.dataset.tile);
    const down = !open.has(n) || chosen.has(n);
    el.classList.toggle("covered", down);
    el.classList.toggle("chosen", chosen.has(n));
    el.classList.toggle("best-hint", best.has(n) && !chosen.has(n));
    const where = chosen.has(n)
      ? t("tile {n}, covered by this throw", { n })
      : down ? t("tile {n}, covered", { n }) : t("tile {n}, open", { n });
    el.setAttribute(
      "aria-label",
      best.has(n) && !chosen.has(n) ? t("{tile}, the best choice", { tile: where }) : where,
    );
  }
  // A step taken one at a time rolls its dice in; a jump (Home, End, a link) does not.
  const dead = Boolean(step.cover && step.cover.length === 0);
  const label = (d) => t("die showing {d}", { d });
  showDice($("replay-dice"), step.dice, label, { dead, roll: rolled, tag: "div" });
  seatItems.forEach((li, s) => {
    li.querySelector(".total").textContent = step.totals[s];
    li.classList.toggle("current", s === step.seat);
  });

  // The position this step was played in, on the analysis board.
  const board = $("board-link");
  board.hidden = !step.board;
  if (step.board) board.href = step.board;

  const dice = step.kind === "throw" ? step.dice_choice : null;
  const diceText = $("dice-choice");
  diceText.hidden = !dice;
  diceText.className = "gave-away" + (dice ? (dice.given_away === 0 ? " zero" : " some") : "");
  diceText.textContent = dice ? diceChoiceText(dice) : "";

  oddsBody.replaceChildren();
  const gave = $("gave-away");
  gave.className = "gave-away";
  if (step.kind !== "throw" || step.options.length === 0) {
    $("odds-box").hidden = true;
    $("no-choice").textContent =
      step.kind === "out" ? t("Nobody chose anything here.") : t("The dice offered nothing, so there was no choice.");
    gave.textContent = "";
    return;
  }
  $("odds-box").hidden = false;
  $("no-choice").textContent =
    step.options.length === 1 ? t("Only one option was on offer: a forced cover.") : "";
  for (const o of step.options) {
    const tr = document.createElement("tr");
    const isChosen = same(o.tiles, step.cover);
    const isBest = same(o.tiles, step.best);
    tr.classList.toggle("chosen", isChosen);
    tr.classList.toggle("best", isBest);
    // [text, exact fraction for its title, a number column]
    const cells = [
      [tilesText(o.tiles), null, false],
      [o.p_text, o.p_exact, true],
      // The last is what "given away" is measured in, so the sentence's figures are here.
      ...(forMatch
        ? [[o.p_win_text, o.p_win, true], [o.p_draw_text, o.p_draw, true], [o.equity_text, o.equity, true]]
        : []),
      [formatNumber(o.e, { minimumFractionDigits: 2, maximumFractionDigits: 2 }), null, true],
      [[isChosen ? t("chosen") : "", isBest ? t("best") : ""].filter(Boolean).join(", "), null, false],
    ];
    for (const [text, exact, num] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (exact !== null) td.title = t("exactly {fraction}", { fraction: exact });
      if (num) td.className = "num";
      tr.append(td);
    }
    oddsBody.append(tr);
  }
  if (step.cover === null) {
    gave.textContent = t("No cover was chosen.");
  } else if (step.given_away === 0) {
    gave.textContent = t("The best choice: it gave away nothing.");
    gave.classList.add("zero");
  } else {
    const kept = step.options.find((o) => same(o.tiles, step.cover));
    const top = step.options.find((o) => same(o.tiles, step.best));
    const facts = {
      lost: step.given_away_text,
      kept: kept.equity_text,
      best: tilesText(step.best),
      top: top.equity_text,
    };
    gave.textContent = forMatch
      ? t("Gave away {lost} of winning chance: this cover kept {kept}, the best ({best}) kept {top}.", facts)
      : t("Gave away {lost} of chance: this cover kept {kept}, the best ({best}) kept {top}.", facts);
    gave.classList.add("some");
  }
}

let index = 0;
function go(i) {
  const to = Math.max(0, Math.min(steps.length - 1, i));
  const rolled = to === index + 1 && steps[to].kind === "throw";
  index = to;
  show(index, rolled);
  history.replaceState(null, "", `#step-${index + 1}`);
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(index - 1));
$("next").addEventListener("click", () => go(index + 1));
$("last").addEventListener("click", () => go(steps.length - 1));
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 };
  if (e.key in moves) {
    e.preventDefault();
    go(moves[e.key]);
  }
});

const fromHash = /^#step-(\d+)$/.exec(location.hash);
if (steps.length) go(fromHash ? Number(fromHash[1]) - 1 : 0);
else $("step-text").textContent = t("This match had no throws.");
