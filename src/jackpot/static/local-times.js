// Times the server wrote in UTC (<time class="local" datetime="…Z">, from the template
// filter local_time), rewritten in the reader's own time zone and the page's language.
// The UTC text the server wrote stays in the element's title; without scripts it is
// what the page shows.
import { intlLocale } from "./i18n.js";

// With the zone's short name, so nobody takes it for UTC or the match's other players' time.
const FORMAT = new Intl.DateTimeFormat(intlLocale, {
  year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short",
});

/** Rewrites every server-written time under `root` (again after the lobby's list is swapped). */
export function localTimes(root = document) {
  for (const el of root.querySelectorAll("time.local[datetime]")) {
    if (el.dataset.local) continue;
    const at = new Date(el.getAttribute("datetime"));
    if (Number.isNaN(at.getTime())) continue;
    el.title = el.textContent;
    el.textContent = FORMAT.format(at);
    el.dataset.local = "1";
  }
}

localTimes();
