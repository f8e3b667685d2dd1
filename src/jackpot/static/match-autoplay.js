// The note beside the autoplay switches. A match between people starts with forced
// moves played for the player (their account's default, docs/autoplay.md), which
// surprised people who had never met it: the first time it is on, the note says what
// it does and that it is on, until they close it or change a switch themselves. That
// is remembered in this browser (localStorage, jackpot.autoplaySeen).
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
