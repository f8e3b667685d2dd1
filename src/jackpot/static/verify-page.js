// The Verify page: reads a record or a tournament export from the text box, a file,
// ?match=ID or ?tournament=ID, runs the
// verifier in the browser and shows each check with a tick and the first problem; a
// daily entry's turn scores beside par's; a record waiting for its seed, as such; and,
// after the checks, what the record says that nothing checked depends on (its notes).
import { t } from "./i18n.js";
import { isTournament, verifyRecord, verifyTournament } from "./verify.js";

const form = document.getElementById("verify-form");
const text = document.getElementById("record-text");
const file = document.getElementById("record-file");
const button = document.getElementById("verify-button");
const outcome = document.getElementById("verify-outcome");
const summary = document.getElementById("verify-summary");
const problemBox = document.getElementById("verify-problem");
const problemText = document.getElementById("verify-problem-text");
const checks = document.getElementById("verify-checks");
const dailyBox = document.getElementById("verify-daily");

/** One row of the turn-score table: the scores (a turn not yet known: "–"), jackpots, total. */
function fillRow(row, scores, result) {
  const cells = [];
  for (let turn = 0; turn < 10; turn++) cells.push(turn < scores.length ? scores[turn] : "–");
  cells.push(result ? result.jackpots : "–", result ? result.total : "–");
  row.replaceChildren(
    row.querySelector("th"),
    ...cells.map((value) => {
      const td = document.createElement("td");
      td.textContent = String(value);
      return td;
    }),
  );
}

/** A daily entry's scores beside par's (once the seed is out), and how it stands. */
function showDaily(daily) {
  dailyBox.hidden = !daily;
  if (!daily) return;
  fillRow(document.getElementById("verify-entry-row"), daily.entry ? daily.entry.turn_scores : daily.played, daily.entry);
  const parRow = document.getElementById("verify-par-row");
  parRow.hidden = !daily.par;
  if (daily.par) fillRow(parRow, daily.par.turn_scores, daily.par);
  const versus = document.getElementById("verify-versus");
  versus.textContent = daily.versusText ? t("This entry is {versus}.", { versus: daily.versusText }) : t("Par is known once the day's seed is published.");
}

// A failure's reason is said once, in the problem box: the verdict line above it is
// short, and the checks' heading shows only when some checks passed.
function show(report) {
  outcome.hidden = false;
  const pending = Boolean(report.pending);
  outcome.classList.toggle("ok", report.ok);
  outcome.classList.toggle("bad", !report.ok && !pending && Boolean(report.problem));
  // (Babel finds no t() inside a template literal: these are plain strings.)
  let verdict = report.summary;
  if (report.ok) verdict = "✓ " + report.summary;
  else if (pending) verdict = "… " + report.summary;
  else if (report.problem) verdict = "✗ " + t("Not verified.");
  summary.textContent = verdict;
  // Waiting for the seed is no failure: the verdict says what waits, no red box.
  problemBox.hidden = report.ok || pending || !report.problem;
  showDaily(report.daily || null);
  problemText.textContent = report.problem || "";
  const notes = report.notes || [];
  document.getElementById("verify-checked").hidden = !report.checks.length && !notes.length;
  document.getElementById("verify-scope").hidden = !report.ok;
  const item = (className, text) => {
    const li = document.createElement("li");
    li.className = className;
    li.textContent = text;
    return li;
  };
  checks.replaceChildren(
    ...report.checks.map((sentence) => item("check", `✓ ${sentence}`)),
    ...notes.map((sentence) => item("check note", `ℹ ${sentence}`)),
  );
}

async function run(source) {
  button.disabled = true;
  summary.textContent = t("Checking…");
  outcome.hidden = false;
  try {
    show(await (isTournament(source) ? verifyTournament(source) : verifyRecord(source)));
  } catch (err) {
    show({ ok: false, checks: [], problem: String(err), summary: t("Not verified: {error}", { error: String(err) }) });
  } finally {
    button.disabled = false;
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (!text.value.trim()) {
    show({
      ok: false,
      checks: [],
      problem: null,
      summary: t("Nothing to check yet: paste a record above or choose its file."),
    });
    return;
  }
  run(text.value);
});

file.addEventListener("change", async () => {
  const chosen = file.files && file.files[0];
  if (!chosen) return;
  text.value = await chosen.text();
  run(text.value);
});

const params = new URLSearchParams(location.search);
const matchId = params.get("match");
/** Fetches what `url` holds into the text box and verifies it; `words` are the page's
 * sentences for this kind of thing (fetching, refused by the site, unreachable). */
async function fetchAndRun(url, words) {
  summary.textContent = words.fetching;
  outcome.hidden = false;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await response.text();
    if (!response.ok) {
      let why = words.answered(response.status);
      try {
        const error = JSON.parse(body).error;
        if (error && error.message) why = error.message;
      } catch {
        // not JSON: keep the status
      }
      show({ ok: false, checks: [], problem: why, summary: words.refused });
      return;
    }
    text.value = body;
    run(body);
  } catch {
    // The browser's own reason ("Failed to fetch") is English: say it in the page's words.
    show({ ok: false, checks: [], problem: words.unreachable, summary: words.failed });
  }
}

const tournamentId = params.get("tournament");
if (tournamentId && !matchId) {
  fetchAndRun(`/api/tournaments/${encodeURIComponent(tournamentId)}/export`, {
    fetching: t("Fetching the tournament's export…"),
    answered: (status) => t("the site answered {status} for tournament {tournament}", { status, tournament: tournamentId }),
    refused: t("Could not fetch tournament {tournament}.", { tournament: tournamentId }),
    unreachable: t("could not fetch the export: the site could not be reached, so check the connection and try again"),
    failed: t("Could not fetch the export."),
  });
}
if (matchId) {
  fetchAndRun(`/api/matches/${encodeURIComponent(matchId)}/record`, {
    fetching: t("Fetching the record…"),
    answered: (status) => t("the site answered {status} for match {match}", { status, match: matchId }),
    refused: t("Could not fetch match {match}.", { match: matchId }),
    unreachable: t("could not fetch the record: the site could not be reached, so check the connection and try again"),
    failed: t("Could not fetch the record."),
  });
}
