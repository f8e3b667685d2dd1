// The watch list, kept current (static/live-section.js): every few seconds while the
// tab is shown the page fetches itself again and puts in the new #watch-list
// (web/watch/routes.py says why not the lobby's pings).
import { tn } from "./i18n.js";
import { pollSection, swapSection } from "./live-section.js";

const EVERY_MS = 10000;
const list = document.getElementById("watch-list");
const status = document.getElementById("watch-status");

function swap(fresh) {
  swapSection(list, fresh, status, (n) => tn("{n} match being played", "{n} matches being played", n));
}

if (list) pollSection(list, EVERY_MS, swap);
