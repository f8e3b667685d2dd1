// A tournament's page and the list, live (static/live-section.js): on each ping of
// the tournament's stream (web/tournaments/live.py) the page fetches itself again and
// puts in the new section; a screen reader hears the sentence the page gave for it.
import { followSection, swapSection } from "./live-section.js";
import { localTimes } from "./local-times.js";

const own = document.getElementById("tournament-live");
const list = document.getElementById("tournament-lists");

if (own) {
  const status = document.getElementById("tournament-status");
  const id = location.pathname.split("/")[2];
  const swap = (fresh) => {
    // The entry form keeps the commitment it shows and the seed made for it
    // (static/commitment.js wired this one; a fresh copy would come without them).
    const form = own.querySelector("form[data-starts-match]");
    const again = form && fresh.querySelector(`form[data-starts-match][action="${form.getAttribute("action")}"]`);
    if (again) again.replaceWith(form);
    swapSection(own, fresh);
    localTimes(own);
    status.textContent = own.dataset.said || "";
  };
  followSection(own, `/api/tournaments/${encodeURIComponent(id)}/events`, "tournament", swap);
} else if (list) {
  const swap = (fresh) => {
    swapSection(list, fresh);
    localTimes(list);
  };
  followSection(list, "/api/tournaments/events", "tournaments", swap);
}
