// When a match ends while its page is open, offer the replay and its analysis
// right under the result (the page's own script draws the result; this only
// watches for it, so the two stay independent).

const root = document.getElementById("match");
const result = document.getElementById("result");
const link = document.createElement("p");
link.className = "replay-offer";
link.hidden = true;
link.innerHTML = `<a class="button" id="replay-offer" href="/matches/${root.dataset.matchId}/replay">Replay and analysis of every choice</a>`;
result.after(link);

function update() {
  // A real result has a heading; a match called off before it started has none.
  link.hidden = result.hidden || !result.querySelector("h2");
}
new MutationObserver(update).observe(result, { attributes: true, childList: true, subtree: true });
update();
