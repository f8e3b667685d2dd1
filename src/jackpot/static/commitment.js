// The commitment comes first: every form that starts a match ([data-starts-match]) gets
// its server seed fixed before the person chooses a client seed. The page asks the
// server for one (POST /api/commitments), shows its SHA-256 beside the client-seed field
// ([data-commitment-note]) and sends it with the form, which then posts nothing until
// it is there; only then does the page propose a client seed made in the browser
// (static/client-seed.js). The match page says whether its commitment is the one shown
// (#commitment-check). Without scripts the forms post without one and the server makes
// the seed with the match, as it does for programs.
import { fillSeeds } from "./client-seed.js";
import { t } from "./i18n.js";

/** Where the page keeps the commitment a person was shown, for the match page to check. */
const SHOWN_KEY = "jackpot.shownCommitment";
/** Ask again when the one held has less than this left (a page left open a day). */
const MARGIN_MS = 60_000;
/** How long after being shown a commitment the match made with it may still be opening. */
const FRESH_MS = 120_000;

/** A sentence with a hash in it, the hash as <code> so it wraps and reads as a value. */
export function withHash(el, words, hash) {
  const [before, after = ""] = words.split("\u0001");
  const code = document.createElement("code");
  code.textContent = hash;
  el.replaceChildren(before, code, after);
}

export async function fetchCommitment() {
  const resp = await fetch("/api/commitments", {
    method: "POST",
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  if (!resp.ok) throw new Error(`commitment: ${resp.status}`);
  return resp.json();
}

/** Note that `commitment` was shown to the person, for the page of the match it makes. */
export function remember(commitment) {
  try {
    sessionStorage.setItem(SHOWN_KEY, JSON.stringify({ commitment, at: Date.now() }));
  } catch { /* private mode without storage: the match page just says nothing */ }
}

function setUpForms(forms) {
  const notes = [...document.querySelectorAll("[data-commitment-note]")];
  const seedInput = document.getElementById("client-seed-input");
  let held = null; // {commitment, expires_at}
  let asking = null;
  let failed = false;

  const show = () => {
    for (const note of notes) {
      note.hidden = false;
      if (held) {
        const words = t("The server's seed for this match is already fixed: its SHA-256 is {hash}.", { hash: "\u0001" });
        withHash(note, words, held.commitment);
      } else {
        note.textContent = failed
          ? t("The server's seed could not be fixed ahead just now: it will be made with the match.")
          : t("Fixing the server's seed for this match…");
      }
    }
    for (const form of forms) {
      form.elements.commitment.value = held ? held.commitment : "";
      // The seed is proposed once the commitment it goes with is on screen (or fixing
      // it failed, and the server makes its seed with the match).
      if (held || failed) fillSeeds(form);
    }
  };
  const fresh = () => held && Date.parse(held.expires_at) - Date.now() > MARGIN_MS;
  const ask = () => {
    if (!asking) {
      asking = fetchCommitment()
        .then((c) => { held = c; failed = false; })
        .catch(() => { held = null; failed = true; })
        .finally(() => { asking = null; show(); });
      show();
    }
    return asking;
  };
  const ready = async () => { if (!fresh()) await ask(); };

  for (const form of forms) {
    form.addEventListener("submit", (ev) => {
      // The other buttons on the home page post the seed typed in the first form's field.
      const copy = form.querySelector("[data-seed-copy]");
      if (copy && seedInput) {
        if (!seedInput.checkValidity()) {
          ev.preventDefault();
          seedInput.closest("details")?.setAttribute("open", "");
          seedInput.reportValidity();
          return;
        }
        copy.value = seedInput.value;
      }
      if (form.dataset.ready === "1") {
        delete form.dataset.ready;
        if (held) remember(held.commitment);
        return;
      }
      // Nothing posts before the seed is fixed and shown: wait for it, then go on.
      ev.preventDefault();
      const by = ev.submitter && form.contains(ev.submitter) ? ev.submitter : null;
      // Submitted again after this event's dispatch, which ignores a nested submission.
      ready().then(() => setTimeout(() => {
        form.dataset.ready = "1";
        if (by) form.requestSubmit(by); else form.requestSubmit();
      }, 0));
    });
  }
  // Back to a page the browser kept: the commitment it held was used by the match made.
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) { held = null; ask(); } });
  return ask;
}

/** The match page: is its commitment the one this person was shown before choosing? */
function checkShown() {
  const el = document.getElementById("commitment-check");
  const stateEl = document.getElementById("initial-state");
  if (!el || !stateEl) return;
  const state = JSON.parse(stateEl.textContent);
  const key = `${SHOWN_KEY}.${state.id}`;
  let shown = null;
  try {
    shown = JSON.parse(sessionStorage.getItem(key) || "null");
    const latest = JSON.parse(sessionStorage.getItem(SHOWN_KEY) || "null");
    if (!shown && latest && Date.now() - latest.at < FRESH_MS && state.seats.some((s) => s.you)) {
      // The match just made from a page that showed a commitment: this one, or a mismatch.
      shown = latest;
      sessionStorage.removeItem(SHOWN_KEY);
      sessionStorage.setItem(key, JSON.stringify(shown));
    }
  } catch { return; }
  if (!shown) return;
  el.hidden = false;
  // Only someone who sent a client seed chose one; the server made the seed of one who
  // sent none (the field left empty), and the page says so instead.
  const chose = state.seats.some((s) => s.you && s.seed_by !== "server");
  if (shown.commitment === state.commitment) {
    el.className = "commitment-check same";
    const same = chose
      ? t("The same one you were shown before you chose your client seed.")
      : t("The same one you were shown before the match was made.");
    el.textContent = `✓ ${same}`;
  } else {
    el.className = "commitment-check differs";
    const words = chose
      ? t("Not the one you were shown before you chose your client seed: {hash}.", { hash: "\u0001" })
      : t("Not the one you were shown before the match was made: {hash}.", { hash: "\u0001" });
    withHash(el, `✗ ${words}`, shown.commitment);
  }
}

/** Ask for a commitment as soon as a form that starts a match can be seen (on the match
 * page, "What next?" appears with the result). */
function whenVisible(form, then) {
  const hidden = form.closest("[hidden]");
  if (!hidden) { then(); return; }
  const watch = new MutationObserver(() => {
    if (!form.closest("[hidden]")) { watch.disconnect(); then(); }
  });
  watch.observe(hidden, { attributes: true, attributeFilter: ["hidden"] });
}

const forms = [...document.querySelectorAll("form[data-starts-match]")];
if (forms.length) {
  const ask = setUpForms(forms);
  whenVisible(forms[0], ask);
}
checkShown();
