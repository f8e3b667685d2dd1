// The daily page, live (static/live-section.js): when a board changes (a ping on
// /api/daily/events, sent by web/daily/live.py), the page fetches itself again and
// puts in the new #daily-boards; a screen reader hears the new number of entries.
import { tn } from "./i18n.js";
import { followSection, swapSection } from "./live-section.js";

const boards = document.getElementById("daily-boards");
const status = document.getElementById("daily-status");

function swap(fresh) {
  swapSection(boards, fresh, status, (n) => tn("{n} entry today", "{n} entries today", n));
}

if (boards) followSection(boards, "/api/daily/events", "daily", swap);
