// Playing out the moves a person watches, at a pace the server counts on. Mirrors
// web/matches/playback.py: the page shows another seat's throw or cover (and any dead
// throw) on its own, then pauses, the pace per throw and per cover coming from the
// page (#match's data-pace-throw and data-pace-cover, set from that module). The
// server starts the person's clock once those pauses are over at the slowest speed, so
// the speed chosen here (slow, normal, fast, kept in localStorage) never costs time.
const root = typeof document !== "undefined" ? document.getElementById("match") : null;

/** Milliseconds after a throw and after a cover at the normal speed (the server's). */
export const PACE = {
  thrown: Number(root && root.dataset.paceThrow) || 600,
  covered: Number(root && root.dataset.paceCover) || 400,
};

/** How much longer (or shorter) than the normal pace each speed pauses. */
export const SPEEDS = { slow: 2, normal: 1, fast: 0.4 };
const SPEED_KEY = "jackpot.speed";

/** Whether the page of the person in seat `viewer` (-1: a visitor) plays `ev` out. */
export function paced(ev, viewer) {
  if (ev.type === "thrown") return ev.seat !== viewer || ev.options.length === 0;
  return ev.type === "covered" && ev.seat !== viewer;
}

/** The pause after a shown event at the normal speed. */
export function paceMs(ev, pace = PACE) {
  return ev.type === "thrown" ? pace.thrown : pace.covered;
}

/** How long the slowest speed takes to play `events` out for seat `viewer`: what the
 * server waits before it starts that person's clock. */
export function playbackMs(events, viewer, pace = PACE) {
  const normal = events.filter((ev) => paced(ev, viewer)).reduce((sum, ev) => sum + paceMs(ev, pace), 0);
  return SPEEDS.slow * normal;
}

function storedSpeed() {
  try {
    const kept = localStorage.getItem(SPEED_KEY);
    return kept in SPEEDS ? kept : "normal";
  } catch {
    return "normal";
  }
}

let speed = typeof localStorage !== "undefined" ? storedSpeed() : "normal";

/** The pause after `ev` at the chosen speed; none when the reader asked for less motion. */
export function pauseAfter(ev) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return Math.round(paceMs(ev) * SPEEDS[speed]);
}

/** The speed choice (a <select> of slow, normal, fast): shows the kept one, keeps a new one. */
export function setUpSpeed(select) {
  if (!select) return;
  select.value = speed;
  select.addEventListener("change", () => {
    speed = select.value in SPEEDS ? select.value : "normal";
    try { localStorage.setItem(SPEED_KEY, speed); } catch { /* kept for this page only */ }
  });
}
