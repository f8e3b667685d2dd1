// The play-now page: a seek made through the JSON API (web/people/api.py) waits on
// its own stream (/api/seeks/{id}/events) and the page goes to the match once it is
// paired; after 30 seconds it offers a bot match in a new tab meanwhile. Challenges
// are sent, accepted, declined and withdrawn here too. The player's own stream
// (/api/my/events) says when a challenge arrives or is answered: the page then
// fetches itself again and puts in each live part of #people-lists whose content
// changed (static/live-section.js, as the lobby does), so a control keeps its focus
// and a screen reader is not read an unchanged list again; what changed is said in
// words, in view and in #people-status.
import { t, tn } from "./i18n.js";
import { refresher, swapSection } from "./live-section.js";
import { markSeen } from "./notify.js";
import { ownPart } from "./own-part.js";

const BOT_OFFER_MS = 30_000;
const REFRESH_MS = 15_000;
// How far this device's clock may be behind the server's for a challenge that left the
// lists at its time to be said expired.
const CLOCK_LEEWAY_MS = 5 * 60_000;

const form = document.getElementById("seek-form");
const seekStart = document.getElementById("seek-start");
const waiting = document.getElementById("seek-waiting");
const seekLine = document.getElementById("seek-line");
const botOffer = document.getElementById("seek-bot");
const seekError = document.getElementById("seek-error");
const lists = document.getElementById("people-lists");
const status = document.getElementById("people-status");
const challengeForm = document.getElementById("challenge-form");
const challengeSend = document.getElementById("challenge-send");
const challengeError = document.getElementById("challenge-error");
const challengesError = document.getElementById("challenges-error");
const challengesNews = document.getElementById("challenges-news");

// This person's part of the next match's server seed, and their client seed.
const mine = ownPart(document.getElementById("own-part-note"), document.getElementById("own-seed-input"));

let seek = null; // { id, stream, timer }
let seeking = false; // a POST /api/seeks in flight

function say(text) {
  status.textContent = text;
}

/** In view beside the challenges and in the live region: what came of one. */
function tell(text) {
  challengesNews.textContent = text;
  challengesNews.hidden = false;
  say(text);
}

function goTo(matchId) {
  window.location.assign(`/matches/${matchId}`);
}

async function api(method, path, body) {
  const resp = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = {};
  try { data = await resp.json(); } catch { /* no body */ }
  if (!resp.ok) throw new Error((data.error && data.error.message) || t("Something went wrong; try again."));
  return data;
}

function showError(el, message) {
  el.textContent = message;
  el.hidden = !message;
}

/**
 * Run `work` with `button` marked busy: a second press (a double click) does nothing
 * while the first one's request is in flight. aria-disabled, not disabled, so the
 * button keeps the keyboard's focus.
 */
async function whileBusy(button, work) {
  if (button.getAttribute("aria-disabled") === "true") return;
  button.setAttribute("aria-disabled", "true");
  try {
    await work();
  } finally {
    button.removeAttribute("aria-disabled");
  }
}

// -- the lists, fetched again --------------------------------------------------------

// The markup each live part was last given: a fetch that brings the same leaves the
// part, and the focus in it, alone.
const shown = new Map([...lists.querySelectorAll("[data-live]")].map((p) => [p.id, p.innerHTML]));
// Why a challenge of the lists went, as this page heard it: "mine" for an answer or a
// withdrawal made here, "declined" and "withdrawn" from the other player, "expired"
// from the site (a page that missed it still tells an expiry by the time).
const endedHow = new Map();

/** The challenges listed now: id → whose, with whom, and until when. */
function listedChallenges() {
  const found = new Map();
  for (const li of lists.querySelectorAll("#incoming li[data-challenge], #outgoing li[data-challenge]")) {
    found.set(li.dataset.challenge, {
      outgoing: li.parentElement.id === "outgoing",
      name: li.querySelector(".pname").textContent,
      expires: Date.parse(li.dataset.expires),
    });
  }
  return found;
}

/** The sentence for a challenge that left the lists, or null when there is nothing to say. */
function whyGone(id, c) {
  const how = endedHow.get(id);
  endedHow.delete(id);
  if (how === "mine") return null;
  if (how === "declined" && c.outgoing) return t("{name} declined your challenge.", { name: c.name });
  if (how === "withdrawn" && !c.outgoing) return t("{name} withdrew the challenge.", { name: c.name });
  if (how !== "expired" && !(Date.now() >= c.expires - CLOCK_LEEWAY_MS)) return null;
  return c.outgoing
    ? t("Your challenge to {name} expired: it was not answered in time.", { name: c.name })
    : t("The challenge from {name} expired.", { name: c.name });
}

function swap(fresh) {
  const before = listedChallenges();
  for (const part of lists.querySelectorAll("[data-live]")) {
    const next = fresh.querySelector(`#${CSS.escape(part.id)}`);
    if (!next || next.innerHTML === shown.get(part.id)) continue;
    shown.set(part.id, next.innerHTML);
    swapSection(part, next, status, null);
  }
  const after = listedChallenges();
  for (const [id, c] of before) {
    if (after.has(id)) continue;
    const text = whyGone(id, c);
    if (text) tell(text);
  }
}

const refresh = refresher(lists, swap);

// -- play now ----------------------------------------------------------------------

function optionText(select, value) {
  const option = [...select.options].find((o) => o.value === String(value));
  return option ? option.textContent.trim() : null;
}

/** "Looking for players: Jackpot, 1 minute per throw, 2 seats…", in the form's words. */
function lookingFor(kind) {
  const variant = optionText(form.elements.variant, kind.variant);
  const time = optionText(form.elements.deadline_seconds, kind.deadline_seconds);
  if (!variant || !time) return t("Looking for players…");
  const seats = tn("{n} seat", "{n} seats", kind.seats);
  const spares = tn("{n} spare deadline", "{n} spare deadlines", kind.spares);
  return t("Looking for players: {variant}, {time} per throw, {seats}, {spares}…", {
    variant, time, seats, spares,
  });
}

function stopWaiting() {
  if (seek) {
    seek.stream.close();
    clearTimeout(seek.timer);
  }
  seek = null;
  waiting.hidden = true;
  botOffer.hidden = true;
  form.hidden = false;
}

function follow(seekId, kind) {
  const stream = new EventSource(`/api/seeks/${seekId}/events`);
  const timer = setTimeout(() => { botOffer.hidden = false; }, BOT_OFFER_MS);
  seek = { id: seekId, stream, timer };
  // The bot match offered meanwhile is of the variant sought.
  botOffer.elements.variant.value = kind.variant;
  seekLine.textContent = lookingFor(kind);
  form.hidden = true;
  waiting.hidden = false;
  stream.addEventListener("seek", (ev) => {
    const data = JSON.parse(ev.data);
    if (data.status === "paired" && data.match) {
      say(t("Paired: your match is starting."));
      stream.close();
      goTo(data.match);
    } else if (data.status === "expired") {
      stopWaiting();
      say(t("Nobody came in time: you are no longer looking."));
      seekStart.focus();
      refresh();
    } else if (data.status === "cancelled") {
      stopWaiting();
      say(t("You are no longer looking for players."));
      refresh();
    }
  });
}

async function startSeek(kind) {
  if (seeking || seek) return;
  seeking = true;
  showError(seekError, "");
  try {
    const data = await api("POST", "/api/seeks", { ...kind, ...(await mine.take()) });
    if (data.status === "paired") {
      say(t("Paired: your match is starting."));
      goTo(data.match);
      return;
    }
    follow(data.id, kind);
    say(seekLine.textContent);
    document.getElementById("seek-cancel").focus();
    refresh();
  } catch (err) {
    showError(seekError, err.message);
  } finally {
    seeking = false;
  }
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  whileBusy(seekStart, () => startSeek({
    variant: form.elements.variant.value,
    deadline_seconds: Number(form.elements.deadline_seconds.value),
    seats: Number(form.elements.seats.value),
    spares: Number(form.elements.spares.value),
  }));
});

/** Call off the seek this page waits on (it may have been paired or gone meanwhile). */
async function stopLooking() {
  const id = seek.id;
  stopWaiting();
  try { await api("DELETE", `/api/seeks/${id}`); } catch { /* paired or gone meanwhile */ }
}

document.getElementById("seek-cancel").addEventListener("click", async () => {
  if (!seek) return;
  await stopLooking();
  say(t("You are no longer looking for players."));
  seekStart.focus();
  refresh();
});

// -- challenges --------------------------------------------------------------------

challengeForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  whileBusy(challengeSend, async () => {
    showError(challengeError, "");
    try {
      await api("POST", "/api/challenges", {
        to: challengeForm.elements.to.value.trim(),
        variant: challengeForm.elements.variant.value,
        deadline_seconds: Number(challengeForm.elements.deadline_seconds.value),
        spares: Number(challengeForm.elements.spares.value),
        ...(await mine.take()),
      });
      challengeForm.elements.to.value = "";
      say(t("Challenge sent."));
      refresh();
    } catch (err) {
      showError(challengeError, err.message);
    }
  });
});

/** Accept, decline or withdraw the challenge `id`; an error shows beside the lists. */
async function answer(button, id) {
  showError(challengesError, "");
  challengesNews.hidden = true;
  endedHow.set(id, "mine");
  try {
    if (button.classList.contains("challenge-accept")) {
      // Other tabs of the site need no notification of a match started here.
      markSeen(`accepted:${id}`);
      const data = await api("POST", `/api/challenges/${id}/accept`, await mine.take());
      say(t("Challenge accepted: your match is starting."));
      goTo(data.match);
      return;
    }
    if (button.classList.contains("challenge-decline")) {
      await api("POST", `/api/challenges/${id}/decline`);
      say(t("Challenge declined."));
    } else {
      await api("DELETE", `/api/challenges/${id}`);
      say(t("Challenge withdrawn."));
    }
  } catch (err) {
    // Blocked, answered or expired meanwhile, too many matches: said in view, and
    // announced (role="alert"); the list is fetched again, as it may have changed.
    endedHow.delete(id);
    showError(challengesError, err.message);
  }
  refresh();
}

lists.addEventListener("click", (ev) => {
  const button = ev.target.closest("button");
  if (!button) return;
  if (button.classList.contains("join-kind")) {
    form.elements.variant.value = button.dataset.variant;
    form.elements.deadline_seconds.value = button.dataset.deadline;
    form.elements.seats.value = button.dataset.seats;
    form.elements.spares.value = button.dataset.spares;
    whileBusy(button, async () => {
      // Waiting for another kind: the one chosen now takes its place.
      if (seek) await stopLooking();
      await startSeek({
        variant: button.dataset.variant,
        deadline_seconds: Number(button.dataset.deadline),
        seats: Number(button.dataset.seats),
        spares: Number(button.dataset.spares),
      });
    });
    return;
  }
  if (button.dataset.id) whileBusy(button, () => answer(button, button.dataset.id));
});

// The player's own stream: challenges arriving and answered, and pairings.
const myEvents = new EventSource("/api/my/events");
myEvents.addEventListener("challenge", (ev) => {
  const data = JSON.parse(ev.data);
  say(t("A new challenge from {name}.", { name: data.from }));
  refresh();
});
myEvents.addEventListener("accepted", (ev) => {
  const data = JSON.parse(ev.data);
  say(t("Challenge accepted: your match is starting."));
  goTo(data.match);
});
for (const kind of ["declined", "withdrawn", "expired"]) {
  myEvents.addEventListener(kind, (ev) => {
    const data = JSON.parse(ev.data);
    if (!endedHow.has(data.challenge)) endedHow.set(data.challenge, kind);
    refresh();
  });
}
myEvents.addEventListener("paired", (ev) => {
  const data = JSON.parse(ev.data);
  if (seek && data.seek === seek.id) goTo(data.match);
});

// A seek for an hour or more a throw waits a week, page or not: coming back, the
// page follows it again (a shorter one ended with the page that made it).
async function resume() {
  try {
    const data = await api("GET", "/api/seeks");
    const long = (data.mine || []).find((s) => s.status === "waiting" && s.deadline_seconds >= 3600);
    if (long && !seek && !seeking) follow(long.id, long);
  } catch { /* the form is there to seek again */ }
}
resume();

// From a profile's Challenge button (?to=<name>): the filled-in form is in view, with
// the focus on what is left to do, even on a phone where it is at the bottom.
if (new URLSearchParams(window.location.search).get("to")) {
  const empty = [...challengeForm.querySelectorAll("input")].find((el) => !el.value.trim());
  const target = empty || challengeSend;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: "center" });
}

setInterval(() => { if (document.visibilityState === "visible" && !seek) refresh(); }, REFRESH_MS);

// The waiting seeks, live: a ping whenever one is made, paired, cancelled or expired
// (and when the stream opens again), so another person's seek shows at once.
const listing = new EventSource("/api/seeks/events");
const seeksChanged = () => { if (document.visibilityState === "visible") refresh(); };
listing.addEventListener("open", seeksChanged);
listing.addEventListener("seeks", seeksChanged);
document.addEventListener("visibilitychange", seeksChanged);
