// The match page's word on who put what into the dice: each person whose client seed is
// theirs, and each person who sent none (the server made theirs: it gave them no say);
// and, for a server seed made of parts (a match made for several people at once), each
// part's commitment, and the part once the match is over. Said only where it is so:
// nobody is told they added a piece they did not.
import { andList, shownName, t, tn } from "./i18n.js";

function line(text) {
  const p = document.createElement("p");
  p.className = "small";
  p.textContent = text;
  return p;
}

/** Fill `el` from the state (called on every render; rebuilt only when it changed). */
export function renderSeeds(state, el) {
  const people = state.seats.filter((s) => !s.bot && s.name);
  const key = JSON.stringify([state.status, people.map((s) => [s.name, s.you, s.seed_by]), state.parts]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const lines = [];
  if (state.status !== "waiting" && !state.daily) {
    const own = people.filter((s) => s.seed_by !== "server");
    const made = people.filter((s) => s.seed_by === "server");
    const name = (s) => (s.you ? t("you") : shownName(s.name));
    if (own.length) {
      lines.push(line(tn(
        "A piece of the client seed is from {names}, who sent it.",
        "The client seed has a piece from each of {names}, who sent them.",
        own.length, { names: andList(own.map(name)) })));
    }
    if (made.some((s) => s.you)) {
      lines.push(line(t("You sent no client seed, so the server made your piece: it gave you no say in the dice.")));
    }
    const others = made.filter((s) => !s.you);
    if (others.length) {
      lines.push(line(tn(
        "{names} sent no client seed, so the server made that piece.",
        "{names} sent no client seed, so the server made those pieces.",
        others.length, { names: andList(others.map(name)) })));
    }
  }
  if (state.parts) {
    lines.push(line(tn(
      "The server seed is made of {n} part, whose commitment was shown before any client seed was chosen:",
      "The server seed is made of {n} parts, one for each person, each committed to before that person chose a client seed:",
      state.parts.length, { n: state.parts.length })));
    const list = document.createElement("ol");
    list.className = "seed-parts";
    for (const p of state.parts) {
      const li = document.createElement("li");
      const c = document.createElement("code");
      c.textContent = p.commitment;
      li.append(t("commitment") + " ", c);
      if (p.part) {
        const v = document.createElement("code");
        v.textContent = p.part;
        li.append(" · " + t("part") + " ", v);
      }
      list.append(li);
    }
    lines.push(list);
  }
  el.replaceChildren(...lines);
  el.hidden = lines.length === 0;
}
