// The match page's keys: Space throws and 1 throws one die only when nothing has
// focus (a focused button keeps its own Space); a digit covers (or, in Classic, picks)
// that tile; Escape clears a Classic pick. A text field keeps every key.

/**
 * Listen for the keys. `play` says what the page allows now and does it: canThrow(),
 * oneDie(), canCover(), throwDice(count), tile(n), hasPick(), clearPick().
 */
export function setUpKeys(play) {
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    const nothingFocused = !target || target === document.body || target === document.documentElement;
    if (e.key === " " || e.code === "Space") {
      if (nothingFocused && play.canThrow()) { e.preventDefault(); play.throwDice(2); }
    } else if (e.key === "1" && play.canThrow() && play.oneDie()) {
      e.preventDefault();
      play.throwDice(1);
    } else if (/^[1-9]$/.test(e.key) && play.canCover()) {
      e.preventDefault();
      play.tile(Number(e.key));
    } else if (e.key === "Escape" && play.hasPick()) {
      play.clearPick();
    }
  });
}
