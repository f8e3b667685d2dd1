// The analysis board, answering as the position is set: each change of the form asks
// the server for the page of the new position and puts its odds section in place of
// the old one, so the words and numbers are the server's alone (the same as without
// this script, when the button sends the form). Only the fields of the chosen variant
// are shown and sent. What the new odds say (the best choice, or what was refused) is
// read out in a live region; the address follows the position, so it can be shared.
import { t } from "./i18n.js";

const form = document.getElementById("board-form");
const said = document.getElementById("board-said");
let asked = 0;
let timer = null;

/** Show and send only the chosen variant's fields (and how many hold the score to
 * beat only once there is one). */
function showVariant() {
  const variant = form.elements.variant.value;
  for (const group of form.querySelectorAll("[data-variant]")) {
    const on = group.dataset.variant === variant;
    group.hidden = !on;
    for (const field of group.querySelectorAll("select, input")) field.disabled = !on;
  }
  if (variant === "classic") form.elements.holders.disabled = !form.elements.beat.value.trim();
}

/** The refused field, as the server marks it on a page it renders itself. */
function markRefused(result) {
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  for (const el of form.querySelectorAll("[aria-describedby~='board-error']")) {
    const rest = el.getAttribute("aria-describedby").split(" ").filter((id) => id !== "board-error");
    if (rest.length) el.setAttribute("aria-describedby", rest.join(" "));
    else el.removeAttribute("aria-describedby");
  }
  const error = result.querySelector("#board-error");
  if (!error) return;
  const field = error.dataset.field;
  const controls = form.querySelectorAll(`select[name='${field}'], input[type='number'][name='${field}']`);
  const group = document.getElementById(`field-${field}`);
  for (const el of [...controls, ...(group && group.tagName === "FIELDSET" ? [group] : [])]) {
    if (el.tagName !== "FIELDSET") el.setAttribute("aria-invalid", "true");
    const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    el.setAttribute("aria-describedby", [...ids, "board-error"].join(" "));
  }
}

async function update() {
  showVariant();
  const query = new URLSearchParams(new FormData(form)).toString();
  const ticket = ++asked;
  let html;
  try {
    const r = await fetch(`/analysis?${query}`, { headers: { accept: "text/html" } });
    html = await r.text();
  } catch {
    if (ticket === asked) said.textContent = t("The odds could not be fetched: check the connection and try again.");
    return;
  }
  if (ticket !== asked) return; // a newer position is on its way
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("board-result");
  const old = document.getElementById("board-result");
  if (!fresh || !old) return;
  const exact = old.querySelector("#show-exact");
  const freshExact = fresh.querySelector("#show-exact");
  if (exact && freshExact) freshExact.checked = exact.checked;
  const error = fresh.querySelector("#board-error");
  // Said once, by the live region below, not again by the message's own alert role.
  if (error) error.removeAttribute("role");
  old.replaceWith(fresh);
  markRefused(fresh);
  history.replaceState(null, "", fresh.dataset.board || `/analysis?${query}`);
  const summary = error || fresh.querySelector("#board-summary");
  said.textContent = summary ? summary.textContent.replace(/\s+/g, " ").trim() : "";
}

function soon(delay) {
  clearTimeout(timer);
  timer = setTimeout(update, delay);
}

form.addEventListener("change", () => soon(120));
// A score typed digit by digit is asked for once the typing pauses.
form.addEventListener("input", (e) => {
  if (e.target.type === "number") soon(500);
});
form.addEventListener("submit", (e) => {
  e.preventDefault();
  clearTimeout(timer);
  update();
});
showVariant();
