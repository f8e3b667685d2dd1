// A section of a page kept live by a stream of pings: on each ping, and each time the
// stream (re)connects so that a change made while it was away is not missed, the page
// fetches itself again and hands the fresh copy of the section to `swap`. Fetches never
// overlap: a ping during one asks for one more after it. `data-fetched` counts the
// finished fetches, which lets a test wait for one without guessing a delay.

/**
 * @param {HTMLElement} section the element to follow, found again by its id
 * @param {string} eventsUrl the stream of pings (an EventSource address)
 * @param {string} eventName the pings' event name
 * @param {(fresh: HTMLElement) => void} swap puts the fresh copy in place
 */
export function followSection(section, eventsUrl, eventName, swap) {
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
      // Offline for a moment: the stream's reconnection fetches again.
    } finally {
      busy = false;
      section.dataset.fetched = String(Number(section.dataset.fetched || 0) + 1);
    }
    if (again) {
      again = false;
      refresh();
    }
  }

  const stream = new EventSource(eventsUrl);
  stream.addEventListener("open", refresh);
  stream.addEventListener(eventName, refresh);
}
