// The lobby, live (static/live-section.js): when the open matches change (a ping on
// /api/lobby/events, sent by play/lobby.py), the page fetches itself again and
// puts in the new #lobby-list, its times in the reader's own time zone.
import { tn } from "./i18n.js";
import { followSection, swapSection } from "./live-section.js";
import { localTimes } from "./local-times.js";

const list = document.getElementById("lobby-list");
const status = document.getElementById("lobby-status");

function swap(fresh) {
  swapSection(list, fresh, status, (n) => tn("{n} open match", "{n} open matches", n));
  localTimes(list);
}

if (list) followSection(list, "/api/lobby/events", "lobby", swap);
