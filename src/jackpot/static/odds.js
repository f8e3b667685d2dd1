// "Show odds" on the match page, for practice and bot matches only (the server
// refuses the odds of a live match between people, and the page loads this file
// only when one person is playing). Independent of match.js: it watches the dice
// and asks the server for the exact odds of whatever position is on the board.

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
  if (body.options.length) {
    const table = document.createElement("table");
    table.className = "odds";
    const head = table.createTHead().insertRow();
    for (const [text, cls] of [[t("Cover"), ""], [t("Chance of shutting the box this turn"), "num"]]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      if (cls) th.className = cls;
      head.append(th);
    }
    const tbody = document.createElement("tbody");
    for (const o of body.options) {
      const tr = document.createElement("tr");
      const best = body.best && o.tiles.join() === body.best.join();
      tr.classList.toggle("best", Boolean(best));
      const a = document.createElement("td");
      a.textContent = o.tiles.join(" + ");
      const b = document.createElement("td");
      b.className = "num";
      b.textContent = o.p_text;
      b.title = t("exactly {fraction}", { fraction: o.p_exact });
      tr.append(a, b);
      tbody.append(tr);
    }
    table.append(tbody);
    out.append(table);
  } else if (body.p_shut !== null) {
    const p = document.createElement("p");
    p.className = "small";
    p.textContent = t("Chance of shutting the box from here, playing perfectly: {chance}.", { chance: body.p_shut });
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
