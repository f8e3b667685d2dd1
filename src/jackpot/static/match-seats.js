// The match page's seats and its result: names (linked to profiles where there is
// one to open), running totals, bots' strength badges, who is out, and the places.
import { W } from "./match-words.js";
import { shownName } from "./i18n.js";
import { ratingEl } from "./rating.js";

// Per seat: the profile its name links to, a bot's strength once the match is over,
// a person's rating in the match's variant.
// Kept beside the state (no live event carries them) and asked for again when they
// can change: a seat taken or freed, the match over, a resync.
let seatLinks = JSON.parse(document.getElementById("seat-links").textContent).seats;

export async function refreshSeatLinks(matchId, then) {
  try {
    const resp = await fetch(`/api/matches/${matchId}/seats`, { credentials: "same-origin" });
    if (resp.ok) { seatLinks = (await resp.json()).seats; then(); }
  } catch { /* names stay as they were; play is unaffected */ }
}

function nameEl(s, links) {
  const el = document.createElement("span");
  el.className = "name";
  const text = shownName(s.name) || W.freeSeat;
  if (s.name && links.profile) {
    const a = document.createElement("a");
    a.href = `/players/${encodeURIComponent(links.profile)}`;
    a.textContent = text;
    el.append(a);
  } else {
    el.textContent = text;
  }
  el.title = text; // a long name is cut short with an ellipsis where space is tight
  if (!s.you) return el;
  const both = document.createElement("span");
  both.className = "who";
  const mark = document.createElement("span");
  mark.className = "you-mark";
  mark.textContent = W.youMark;
  both.append(el, mark);
  return both;
}

// The bot's strength is drawn from the seed, so it stays secret until the end (a
// match called off before the start never drew one).
function botBadge(strength, finished) {
  const b = document.createElement("span");
  b.className = "badge";
  if (strength) {
    b.textContent = W.strength(strength);
    b.title = W.strengthTitle(strength);
  } else if (!finished) {
    b.textContent = W.strengthSecret;
    b.title = W.strengthSecretTitle;
  } else {
    b.textContent = W.bot;
    b.title = W.botTitle;
  }
  return b;
}

export function renderSeats(state, list) {
  list.textContent = "";
  state.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.className = "seat";
    const current = state.turn && state.turn.seat === i;
    li.classList.toggle("current", Boolean(current));
    if (current) li.setAttribute("aria-current", "step");
    li.classList.toggle("you", Boolean(s.you));
    li.classList.toggle("out", Boolean(s.out));
    const links = seatLinks[i] || {};
    const total = document.createElement("span");
    total.className = "total";
    // A 0 would read as the best score: a seat the end of the match never let throw
    // shows a dash.
    // (A daily entry's result has no places: it is one seat against the day's board.)
    const noTurn = state.status === "finished" && state.result && state.result.places
      && neverThrew(state, i, null);
    total.textContent = !s.name ? "" : noTurn ? "–" : `${s.total}`;
    total.title = noTurn ? W.noTurn : W.runningTotal;
    const rating = s.name ? ratingEl(links.rating) : null;
    li.append(nameEl(s, links), ...(rating ? [rating] : []), total);
    if (s.bot) li.append(botBadge(links.strength, state.status === "finished"));
    // A match with spare deadlines: each person's left, while it is played.
    if (state.spares > 0 && !s.bot && !s.out && state.status !== "finished") {
      const sp = document.createElement("span");
      sp.className = "badge spares-left";
      sp.textContent = W.sparesLeft(s.spares_left);
      sp.title = W.sparesLeftTitle;
      li.append(sp);
    }
    if (s.out) {
      const o = document.createElement("span");
      o.className = "out-tag";
      o.textContent = s.out === "timeout" ? W.outTime : W.outResigned;
      li.append(o);
    }
    list.append(li);
  });
}

/**
 * Whether seat `i` never threw: still in, no shut box and no points, while another seat
 * shut the box (in Classic nobody throws after that). `threw`, the seats the match's
 * events show throwing once they are all read (else null), settles the one case the
 * result cannot: a seat left alone in the match by the others' leaving.
 */
export function neverThrew(state, i, threw) {
  const r = state.result;
  if (state.seats[i].out || r.shut[i] !== null || r.totals[i] !== 0) return false;
  return threw ? !threw.has(i) : r.shut.some((n) => n !== null);
}

export function renderResult(state, el, seatName, me, threw) {
  if (state.status !== "finished") { el.hidden = true; return; }
  el.hidden = false;
  const r = state.result;
  // Drawn again only when something in it changed, so focus inside it stays put.
  const key = JSON.stringify([r, state.seats.map((s, i) => [seatName(i), s.out]), threw ? [...threw] : null]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.textContent = "";
  if (!r) {
    const p = document.createElement("p");
    p.textContent = W.calledOff;
    el.append(p);
    return;
  }
  const h = document.createElement("h2");
  const soloOut = state.seats.length === 1 && state.seats[0].out;
  if (soloOut) h.textContent = `${W.matchOver}: ${W.logOut(seatName(0), true, soloOut)}`;
  else if (state.seats.length === 1) h.textContent = r.shut[0] !== null ? W.practiceShut(r.shut[0]) : W.practiceScore(r.totals[0]);
  else if (r.winners.length === 0) h.textContent = W.matchOver;
  else if (me >= 0 && r.winners.includes(me)) h.textContent = r.winners.length > 1 ? W.youShare : W.youWin;
  else h.textContent = r.winners.length > 1 ? W.drawBetween(r.winners.map(seatName)) : W.wins(seatName(r.winners[0]));
  el.append(h);
  if (state.seats.length === 1) {
    // Practice alone: the heading says the score; there is no place to name.
    if (state.variant === "jackpot" && r.rounds > 1) {
      const p = document.createElement("p");
      p.textContent = W.turnsPlayed(r.rounds);
      el.append(p);
    }
    return;
  }
  const ul = document.createElement("ul");
  ul.className = "places";
  const order = state.seats.map((_, i) => i).sort((a, b) => r.places[a] - r.places[b]);
  for (const i of order) {
    const li = document.createElement("li");
    const noTurn = neverThrew(state, i, threw);
    li.textContent = W.placeLine(r.places[i], seatName(i), r.totals[i], r.shut[i], state.seats[i].out, noTurn);
    ul.append(li);
  }
  el.append(ul);
  // The ways on (a new match, a rematch, the replay) follow in the page's own box.
  const p = document.createElement("p");
  p.textContent = W.roundsPlayed(r.rounds);
  el.append(p);
}
