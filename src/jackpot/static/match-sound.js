// Optional sound on the match page: a rattle when dice are thrown and a two-note
// chime when it becomes your throw. Off until the player ticks the box; the choice
// is remembered in this browser. Made with Web Audio, so there are no files to load.
const KEY = "jackpot.sound";
let ctx = null;

export function soundOn() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

export function setUpSoundSwitch(box) {
  box.checked = soundOn();
  box.addEventListener("change", () => {
    try { localStorage.setItem(KEY, box.checked ? "1" : "0"); } catch { /* private mode */ }
    if (box.checked) play("turn"); // a sample, and browsers allow audio after a click
  });
}

function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function tone(a, freq, start, length, volume) {
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(volume, a.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + start + length);
  osc.connect(gain).connect(a.destination);
  osc.start(a.currentTime + start);
  osc.stop(a.currentTime + start + length);
}

/** kind: "dice" or "turn"; silent unless sound is on. */
export function play(kind) {
  if (!soundOn()) return;
  const a = audio();
  if (!a) return;
  if (kind === "dice") {
    // A few short clicks of falling pitch: dice knocking on a board.
    for (let i = 0; i < 5; i++) tone(a, 900 - i * 110 + Math.random() * 80, i * 0.045, 0.04, 0.15);
  } else {
    tone(a, 660, 0, 0.18, 0.2);
    tone(a, 880, 0.16, 0.28, 0.2);
  }
}
