// The match page's queue of live events, shown one at a time: a step worth watching
// (match-playback.js: another seat's throw or cover, a dead throw) is followed by a
// pause at the chosen speed before the next event is applied, whenever that event
// comes. "Skip to now" (and a throw pressed meanwhile) applies the rest at once.
import { applyEvent } from "./match-state.js";
import { paced, pauseAfter } from "./match-playback.js";

export class EventQueue {
  // apply(ev) shows one event; render() redraws while waiting; viewer() is the
  // reader's seat (-1: a visitor), whose own moves are not played out.
  constructor({ apply, render, viewer }) {
    Object.assign(this, { apply, render, viewer });
    this.events = [];
    this.pumping = false;
    this.skipping = false;
    this.lastPaced = null; // {ev, at}: the latest step worth watching and when it was shown
    this.wake = null; // ends the pause between two shown steps
    this.idle = []; // resolved once nothing is queued or in flight
  }

  get length() { return this.events.length; }

  /** Steps still to be played out (what the Skip control counts). */
  steps() { return this.events.filter((ev) => paced(ev, this.viewer())).length; }

  /** The state once every queued event is applied: what the reader may act on now. */
  ahead(state) { return this.events.reduce((s, ev) => applyEvent(s, ev), state); }

  push(ev) {
    this.events.push(ev);
    if (!this.pumping) this.pump();
  }

  /** Show the rest at once. */
  skip() {
    if (!this.pumping) return;
    this.skipping = true;
    if (this.wake) this.wake();
  }

  /** Forget what is queued (a fresh state replaces it). */
  clear() {
    this.events.length = 0;
    if (this.wake) this.wake();
  }

  /** Resolves once everything queued has been shown. */
  settled() {
    if (!this.pumping && !this.events.length) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => { clearTimeout(timer); resolve(); };
    });
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    while (this.events.length) {
      if (this.lastPaced && !this.skipping) {
        const wait = pauseAfter(this.lastPaced.ev) - (Date.now() - this.lastPaced.at);
        if (wait > 0) {
          this.render();
          await this.pause(wait);
          if (!this.events.length) break;
        }
      }
      const ev = this.events.shift();
      this.apply(ev);
      this.lastPaced = paced(ev, this.viewer()) ? { ev, at: Date.now() } : null;
    }
    this.pumping = false;
    this.skipping = false;
    this.render();
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
