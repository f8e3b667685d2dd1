// The note beside the autoplay switches. A match between people starts with forced
// moves played for the player (their account's default, docs/autoplay.md), which
// surprised people who had never met it: the first time it is on, the note says what
// it does and that it is on, until they close it or change a switch themselves. That
// is remembered in this browser (localStorage, jackpot.autoplaySeen). The switches'
// box is drawn here too.
const KEY = "jackpot.autoplaySeen";

function seen() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}
function remember() {
  try { localStorage.setItem(KEY, "1"); } catch { /* storage off: shown again next time */ }
}

/** Wires the note's close button (focus goes on to the first switch) and the switches. */
export function setUpAutoplayNote(note, close, switches) {
  close.addEventListener("click", () => {
    remember();
    note.hidden = true;
    switches[0].focus();
  });
  for (const s of switches) s.addEventListener("change", () => { remember(); note.hidden = true; });
}

/** Shown while this match plays a forced move for the player and the note is new to them. */
export function showAutoplayNote(note, auto) {
  note.hidden = !(auto && (auto.throws || auto.single_covers)) || seen();
}

let shownAuto = null; // the autoplay setting the switches last showed
/** The box of switches for forced moves, this match only (the account page sets the
 * default): shown to a seated player still in a match under way. */
export function renderAutoplay(state, me, out) {
  const auto = me >= 0 ? state.seats[me].autoplay : null;
  document.getElementById("autoplay-box").hidden = !(auto && state.status === "playing" && !out);
  showAutoplayNote(document.getElementById("autoplay-note"), auto);
  // Follow the match's setting when it changes (here or in another tab), not on every
  // render: a click waiting for its answer keeps what it shows.
  const autoNow = JSON.stringify(auto);
  if (auto && autoNow !== shownAuto) {
    document.getElementById("autoplay-throws").checked = auto.throws;
    document.getElementById("autoplay-covers").checked = auto.single_covers;
  }
  shownAuto = autoNow;
}
