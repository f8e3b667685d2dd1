// "Show odds" on the match page, for practice and bot matches only (the server
// refuses the odds of a live match between people, and the page loads this file
// only when one person is playing). Independent of match.js: it watches the dice
// and asks the server for the exact odds of whatever position is on the board.
// Beside the chance of shutting the box this turn, a match with other seats shows
// the chance to win it and of a draw (body.measure "match"); alone, the chance of
// shutting the box is the whole story.

import { t } from "./i18n.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const KEY = "jackpot.showOdds";

const css = document.createElement("link");
css.rel = "stylesheet";
css.href = "/static/players.css";
document.head.append(css);

const panel = document.createElement("section");
panel.className = "odds-live";
panel.innerHTML =
  '<label class="check"><input type="checkbox" id="show-odds"> <span></span></label>' +
  '<div id="odds-live" aria-live="polite"></div>';
panel.querySelector("label span").textContent = t("Show the odds of each choice");
document.getElementById("options").after(panel);
const box = panel.querySelector("#show-odds");
const out = panel.querySelector("#odds-live");
box.checked = localStorage.getItem(KEY) === "1";

let timer = null;
let asked = 0;

async function refresh() {
  const ticket = ++asked;
  // Nothing left to choose once the match is over.
  panel.hidden = !document.getElementById("result").hidden;
  if (!box.checked || panel.hidden) {
    out.replaceChildren();
    return;
  }
  let body;
  try {
    const r = await fetch(`/api/matches/${matchId}/odds`, { headers: { accept: "application/json" } });
    if (!r.ok) {
      out.replaceChildren();
      return;
    }
    body = await r.json();
  } catch {
    return;
  }
  if (ticket !== asked) return; // a newer position is already being fetched
  out.replaceChildren();
  const forMatch = body.measure === "match";
  const rows = body.decision === "dice" ? body.dice_options : body.options;
  if (rows.length) {
    const table = document.createElement("table");
    table.className = "odds";
    const head = table.createTHead().insertRow();
    const columns = [
      [body.decision === "dice" ? t("Dice") : t("Cover"), ""],
      [t("Chance of shutting the box this turn"), "num"],
    ];
    if (forMatch) columns.push([t("Chance to win the match"), "num"], [t("Chance of a draw"), "num"]);
    for (const [text, cls] of columns) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      if (cls) th.className = cls;
      head.append(th);
    }
    const tbody = document.createElement("tbody");
    for (const o of rows) {
      const tr = document.createElement("tr");
      const best = body.decision === "dice" ? o.dice === body.best_dice : body.best && o.tiles.join() === body.best.join();
      tr.classList.toggle("best", Boolean(best));
      const a = document.createElement("td");
      a.textContent = body.decision === "dice" ? (o.dice === 1 ? t("One die") : t("Two dice")) : o.tiles.join(" + ");
      tr.append(a);
      const cells = [[o.p_text, o.p_exact]];
      if (forMatch) cells.push([o.p_win_text, o.p_win], [o.p_draw_text, o.p_draw]);
      for (const [text, exact] of cells) {
        const td = document.createElement("td");
        td.className = "num";
        td.textContent = text;
        td.title = t("exactly {fraction}", { fraction: exact });
        tr.append(td);
      }
      tbody.append(tr);
    }
    table.append(tbody);
    // On a phone the columns may be wider than the screen: the table scrolls in its box.
    const box = document.createElement("div");
    box.className = "scroll";
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("The odds of each choice"));
    box.append(table);
    out.append(box);
  } else if (body.p_shut !== null) {
    const p = document.createElement("p");
    p.className = "small";
    p.textContent = t("Chance of shutting the box from here, playing perfectly: {chance}.", { chance: body.p_shut });
    out.append(p);
  }
  if (forMatch && body.p_win !== null) {
    const p = document.createElement("p");
    p.className = "small match-chance";
    p.textContent = t("Chance to win the match from here, playing on at best: {win} (a draw: {draw}).", {
      win: body.p_win_text,
      draw: body.p_draw_text,
    });
    p.title = t("exactly {fraction}", { fraction: body.p_win });
    out.append(p);
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 60);
}

box.addEventListener("change", () => {
  localStorage.setItem(KEY, box.checked ? "1" : "0");
  refresh();
});
const watch = { childList: true, subtree: true, characterData: true };
new MutationObserver(schedule).observe(document.getElementById("dice"), watch);
new MutationObserver(schedule).observe(document.getElementById("status"), watch);
refresh();
