// When a match ends while its page is open, offer the replay and its analysis
// right under the result (the page's own script draws the result; this only
// watches for it, so the two stay independent).

import { t } from "./i18n.js";

const root = document.getElementById("match");
const result = document.getElementById("result");
const link = document.createElement("p");
link.className = "replay-offer";
link.hidden = true;
const anchor = document.createElement("a");
anchor.className = "button";
anchor.id = "replay-offer";
anchor.href = `/matches/${root.dataset.matchId}/replay`;
anchor.textContent = t("Replay and analysis of every choice");
link.append(anchor);
result.after(link);

function update() {
  // A real result has a heading; a match called off before it started has none.
  link.hidden = result.hidden || !result.querySelector("h2");
}
new MutationObserver(update).observe(result, { attributes: true, childList: true, subtree: true });
update();
