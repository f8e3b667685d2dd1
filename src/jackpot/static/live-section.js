// A section of a page kept current by fetching the page again: on each ping of a
// stream (and each time the stream (re)connects, so that a change made while it was
// away is not missed), or every few seconds while the tab is shown. The fresh copy of
// the section replaces the old one's content; focus on an element still there stays
// on it, and a screen reader hears the new count, politely, when it changes. Fetches
// never overlap: a ping during one asks for one more after it. `data-fetched` counts
// the finished fetches, which lets a test wait for one without guessing a delay.

/** What identifies a focusable element across two fetches of the page. */
export function keyOf(el) {
  if (el.id) return `#${CSS.escape(el.id)}`;
  const href = el.getAttribute("href");
  return href ? `a[href="${CSS.escape(href)}"]` : null;
}

/**
 * Put `fresh`'s content in `section`, keeping focus where it was, and tell `status`
 * `counted(n)` when the section's `data-count` changed (a section without a count,
 * or no `counted`, says nothing: its page tells what changed in its own words).
 */
export function swapSection(section, fresh, status, counted) {
  const active = document.activeElement;
  const inside = section.contains(active) && active !== section;
  const key = inside ? keyOf(active) : null;
  const before = section.dataset.count;
  section.replaceChildren(...fresh.childNodes);
  if (fresh.dataset.count !== undefined) section.dataset.count = fresh.dataset.count;
  if (inside) ((key && section.querySelector(key)) || section).focus();
  if (counted && fresh.dataset.count !== undefined && fresh.dataset.count !== before) {
    status.textContent = counted(Number(fresh.dataset.count));
  }
}

/** A function that fetches the page again and hands `swap` the fresh `section`. */
export function refresher(section, swap) {
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const r = await fetch(location.pathname, { headers: { accept: "text/html" }, cache: "no-store" });
      if (r.ok) {
        const doc = new DOMParser().parseFromString(await r.text(), "text/html");
        const fresh = doc.getElementById(section.id);
        if (fresh) swap(fresh);
      }
    } catch {
      // Offline for a moment: the next ping or round fetches again.
    } finally {
      busy = false;
      section.dataset.fetched = String(Number(section.dataset.fetched || 0) + 1);
    }
    if (again) {
      again = false;
      refresh();
    }
  }
  return refresh;
}

/** Follow `section` on the pings named `eventName` of the stream at `eventsUrl`. */
export function followSection(section, eventsUrl, eventName, swap) {
  const refresh = refresher(section, swap);
  const stream = new EventSource(eventsUrl);
  stream.addEventListener("open", refresh);
  stream.addEventListener(eventName, refresh);
}

/** Fetch `section` again every `everyMs` while the tab is shown, and on coming back to it. */
export function pollSection(section, everyMs, swap) {
  const refresh = refresher(section, swap);
  const shown = () => { if (!document.hidden) refresh(); };
  setInterval(shown, everyMs);
  document.addEventListener("visibilitychange", shown);
}
