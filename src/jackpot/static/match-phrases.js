// A few words in a match: the phrases seated people may say (web/play/phrases.py),
// each worded here in the reader's own language, the list of what was said, and a
// switch that hides what others say (remembered in this browser). A phrase is a key,
// never free text. Its "said" event carries no seq (it is not part of the match's
// state): the list is kept apart and read again with GET .../said after the
// connection was lost, and, since the live stream ends with the match, every few
// seconds for as long as phrases may still be said after the end.
import { t } from "./i18n.js";
import { announce } from "./announce.js";
import { W } from "./match-words.js";

const KEY = "jackpot.hidePhrases";
const POLL_MS = 5000;

/** Each phrase's words in the page's language, in the order the buttons offer them. */
export const WORDS = {
  good_luck: () => t("Good luck!"),
  have_fun: () => t("Have fun!"),
  well_played: () => t("Well played!"),
  thanks: () => t("Thanks!"),
  nice_jackpot: () => t("Nice jackpot!"),
  unlucky: () => t("Unlucky!"),
  sorry: () => t("Sorry!"),
  must_go: () => t("I must go."),
  rematch: () => t("Rematch?"),
};

/** Mirrors add_said in jackpot/web/matches/live.py: `ev` in the list once, in the
 * order a fresh load gives (time, seat, number). */
export function addSaid(said, ev) {
  const out = said.filter((x) => !(x.seat === ev.seat && x.n === ev.n));
  out.push({ ...ev });
  const key = (x) => [x.at, x.seat, x.n];
  out.sort((a, b) => {
    const [p, q] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (p[i] !== q[i]) return p[i] < q[i] ? -1 : 1;
    return 0;
  });
  return out;
}

function hidden() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

export class Phrases {
  // who: { seatName(i), isYou(i), mySeat(), status() }; box: the section's element.
  constructor(matchId, box, who) {
    Object.assign(this, { matchId, box, who });
    this.said = JSON.parse(document.getElementById("said-initial").textContent).said;
    this.list = box.querySelector("#said");
    this.buttons = box.querySelector("#phrase-buttons");
    this.message = box.querySelector("#phrase-message");
    this.hide = box.querySelector("#phrases-hide");
    this.afterEnd = Number(box.dataset.afterEnd || "0") * 1000;
    this.until = box.dataset.until ? Date.parse(box.dataset.until) : null;
    this.poller = null;
    this.hide.checked = hidden();
    this.hide.addEventListener("change", () => {
      try { localStorage.setItem(KEY, this.hide.checked ? "1" : "0"); } catch { /* private mode */ }
      this.draw();
    });
    for (const [key, words] of Object.entries(WORDS)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "phrase";
      b.dataset.phrase = key;
      b.textContent = words();
      b.addEventListener("click", () => this.say(key));
      this.buttons.append(b);
    }
  }

  /** Whether the reader may say something now (the server decides in the end). */
  open() {
    const status = this.who.status();
    if (this.who.mySeat() < 0 || status === "waiting") return false;
    return status === "playing" || this.until === null || Date.now() < this.until;
  }

  lineOf(ev) {
    const words = WORDS[ev.phrase] ? WORDS[ev.phrase]() : ev.phrase;
    return this.who.isYou(ev.seat)
      ? t("You said: {phrase}", { phrase: words })
      : t("{name} said: {phrase}", { name: this.who.seatName(ev.seat), phrase: words });
  }

  draw() {
    this.buttons.hidden = !this.open();
    this.list.textContent = "";
    const shown = this.said.filter((ev) => this.who.isYou(ev.seat) || !this.hide.checked);
    for (const ev of shown.slice().reverse()) {
      const li = document.createElement("li");
      li.className = "said-line";
      li.dataset.phrase = ev.phrase;
      li.textContent = this.lineOf(ev);
      this.list.append(li);
    }
    this.list.hidden = shown.length === 0;
  }

  /** A live "said" event. */
  heard(ev) {
    const known = this.said.some((x) => x.seat === ev.seat && x.n === ev.n);
    this.said = addSaid(this.said, ev);
    this.draw();
    if (!known && !this.who.isYou(ev.seat) && !this.hide.checked) announce(this.lineOf(ev));
  }

  async reload() {
    try {
      const resp = await fetch(`/api/matches/${this.matchId}/said`, { credentials: "same-origin" });
      if (!resp.ok) return;
      for (const ev of (await resp.json()).said) this.heard(ev);
    } catch { /* the next reload brings them */ }
  }

  /** The match is over: its stream ends, so look for words every few seconds while
   * they may still be said (`ended`: seen live now, else the page's own time). */
  ended(now) {
    if (now && this.until === null) this.until = Date.now() + this.afterEnd;
    this.draw();
    if (this.poller || this.until === null || Date.now() >= this.until) return;
    this.poller = setInterval(() => {
      if (Date.now() >= this.until) { clearInterval(this.poller); this.draw(); return; }
      if (!document.hidden) this.reload();
    }, POLL_MS);
  }

  async say(key) {
    this.message.textContent = "";
    try {
      const resp = await fetch(`/api/matches/${this.matchId}/say`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ phrase: key }),
        credentials: "same-origin",
      });
      if (!resp.ok) {
        const data = await resp.json();
        this.message.textContent = data.error ? data.error.message : W.errorGeneric;
        return;
      }
      if (this.until !== null) this.reload(); // no live stream after the end
    } catch {
      this.message.textContent = W.errorNetwork;
    }
  }
}
