// The play-now page: a seek made through the JSON API (web/people/api.py) waits on
// its own stream (/api/seeks/{id}/events) and the page goes to the match once it is
// paired; after 30 seconds it offers a bot match in a new tab meanwhile. Challenges
// are sent, accepted, declined and withdrawn here too. The player's own stream
// (/api/my/events) says when a challenge arrives or is answered: the page then
// fetches itself again and puts in its #people-lists, as the lobby does, and a
// screen reader hears what changed (#people-status).
import { t } from "./i18n.js";

const BOT_OFFER_MS = 30_000;
const REFRESH_MS = 15_000;

const form = document.getElementById("seek-form");
const waiting = document.getElementById("seek-waiting");
const botOffer = document.getElementById("seek-bot");
const seekError = document.getElementById("seek-error");
const lists = document.getElementById("people-lists");
const status = document.getElementById("people-status");
const challengeForm = document.getElementById("challenge-form");
const challengeError = document.getElementById("challenge-error");

let seek = null; // { id, stream, timer }

function say(text) {
  status.textContent = text;
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

async function refresh() {
  try {
    const resp = await fetch(window.location.pathname, { credentials: "same-origin" });
    if (!resp.ok) return;
    const page = new DOMParser().parseFromString(await resp.text(), "text/html");
    const fresh = page.getElementById("people-lists");
    if (!fresh) return;
    const active = document.activeElement;
    const hadFocus = lists.contains(active) && active !== lists;
    lists.replaceChildren(...fresh.childNodes);
    if (hadFocus) lists.focus();
  } catch { /* the next refresh tries again */ }
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

function follow(seekId) {
  const stream = new EventSource(`/api/seeks/${seekId}/events`);
  const timer = setTimeout(() => { botOffer.hidden = false; }, BOT_OFFER_MS);
  seek = { id: seekId, stream, timer };
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
      form.querySelector("button").focus();
    } else if (data.status === "cancelled") {
      stopWaiting();
      say(t("You are no longer looking for players."));
    }
  });
}

async function startSeek(body) {
  showError(seekError, "");
  try {
    const data = await api("POST", "/api/seeks", body);
    if (data.status === "paired") {
      say(t("Paired: your match is starting."));
      goTo(data.match);
      return;
    }
    say(t("Looking for players…"));
    follow(data.id);
    document.getElementById("seek-cancel").focus();
    refresh();
  } catch (err) {
    showError(seekError, err.message);
  }
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  startSeek({
    variant: form.elements.variant.value,
    deadline_seconds: Number(form.elements.deadline_seconds.value),
    seats: Number(form.elements.seats.value),
  });
});

document.getElementById("seek-cancel").addEventListener("click", async () => {
  if (!seek) return;
  const id = seek.id;
  stopWaiting();
  try { await api("DELETE", `/api/seeks/${id}`); } catch { /* paired or gone meanwhile */ }
  say(t("You are no longer looking for players."));
  form.querySelector("button").focus();
  refresh();
});

challengeForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError(challengeError, "");
  try {
    await api("POST", "/api/challenges", {
      to: challengeForm.elements.to.value.trim(),
      variant: challengeForm.elements.variant.value,
      deadline_seconds: Number(challengeForm.elements.deadline_seconds.value),
    });
    challengeForm.elements.to.value = "";
    say(t("Challenge sent."));
    refresh();
  } catch (err) {
    showError(challengeError, err.message);
  }
});

lists.addEventListener("click", async (ev) => {
  const button = ev.target.closest("button");
  if (!button) return;
  if (button.classList.contains("join-kind")) {
    if (seek) return;
    form.elements.variant.value = button.dataset.variant;
    form.elements.deadline_seconds.value = button.dataset.deadline;
    form.elements.seats.value = button.dataset.seats;
    startSeek({
      variant: button.dataset.variant,
      deadline_seconds: Number(button.dataset.deadline),
      seats: Number(button.dataset.seats),
    });
    return;
  }
  const id = button.dataset.id;
  try {
    if (button.classList.contains("challenge-accept")) {
      const data = await api("POST", `/api/challenges/${id}/accept`);
      say(t("Challenge accepted: your match is starting."));
      goTo(data.match);
      return;
    }
    if (button.classList.contains("challenge-decline")) {
      await api("POST", `/api/challenges/${id}/decline`);
      say(t("Challenge declined."));
    } else if (button.classList.contains("challenge-withdraw")) {
      await api("DELETE", `/api/challenges/${id}`);
      say(t("Challenge withdrawn."));
    }
  } catch (err) {
    say(err.message);
  }
  refresh();
});

// The player's own stream: challenges arriving and answered, and pairings.
const mine = new EventSource("/api/my/events");
mine.addEventListener("challenge", (ev) => {
  const data = JSON.parse(ev.data);
  say(t("A new challenge from {name}.", { name: data.from }));
  refresh();
});
mine.addEventListener("accepted", (ev) => {
  const data = JSON.parse(ev.data);
  say(t("Challenge accepted: your match is starting."));
  goTo(data.match);
});
for (const kind of ["declined", "withdrawn"]) {
  mine.addEventListener(kind, () => refresh());
}
mine.addEventListener("paired", (ev) => {
  const data = JSON.parse(ev.data);
  if (seek && data.seek === seek.id) goTo(data.match);
});

// A seek for an hour or more a throw waits a week, page or not: coming back, the
// page follows it again (a shorter one ended with the page that made it).
async function resume() {
  try {
    const data = await api("GET", "/api/seeks");
    const long = (data.mine || []).find((s) => s.status === "waiting" && s.deadline_seconds >= 3600);
    if (long && !seek) follow(long.id);
  } catch { /* the form is there to seek again */ }
}
resume();

setInterval(() => { if (document.visibilityState === "visible" && !seek) refresh(); }, REFRESH_MS);
