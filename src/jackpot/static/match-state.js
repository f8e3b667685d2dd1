// Applying a live event to a match state. Mirrors jackpot/web/matches/live.py line by line;
// the test suite checks both against a fresh load of the same match.

const HIGH = [7, 8, 9];
const FULL = () => [1, 2, 3, 4, 5, 6, 7, 8, 9];

function oneDie(variant, open) {
  return variant === "classic" && !open.some((t) => HIGH.includes(t));
}

export function applyEvent(state, ev) {
  const s = structuredClone(state);
  if (ev.type === "said") return s; // a phrase: not part of the state (match-phrases.js)
  const seats = s.seats;
  const turn = s.turn;
  switch (ev.type) {
    case "joined": seats[ev.seat].name = ev.name; seats[ev.seat].seed_by = ev.seed_by ?? null; break;
    // A free seat is nobody's, the viewer's own included if they were the one who left.
    case "left": seats[ev.seat].name = null; seats[ev.seat].you = false; seats[ev.seat].seed_by = null; break;
    case "cancelled":
      s.status = "finished";
      s.server_seed = ev.server_seed ?? null;
      if ("parts" in ev) s.parts = ev.parts;
      break;
    case "started":
      // The seats take their places in the order of play drawn from the seed (a
      // match started before the draw has no "joined" and keeps its seats).
      if (ev.joined) s.seats = ev.joined.map((j) => seats[j]);
      s.seats.forEach((seat, i) => { seat.autoplay = ev.autoplay ? ev.autoplay[i] : null; });
      s.status = "playing";
      s.client_seed = ev.client_seed;
      s.round = 1;
      s.turn = { seat: 0, open: FULL(), dice: null, options: [], due_at: null, one_die: false };
      break;
    case "thrown":
      turn.dice = ev.dice;
      turn.options = ev.options;
      turn.one_die = false;
      break;
    case "covered":
      turn.open = ev.open;
      turn.dice = null;
      turn.options = [];
      turn.one_die = oneDie(s.variant, ev.open);
      break;
    case "turn_ended":
      seats[ev.seat].total = ev.total;
      if (s.daily && ev.shut) s.daily.jackpots += 1;
      break;
    case "turn_started":
      // No clock until the move's "deadline" event sets the new turn's (a bot's has none).
      s.round = ev.round;
      if (s.daily) s.daily.turn = ev.round;
      s.turn = { seat: ev.seat, open: FULL(), dice: null, options: [], due_at: null, one_die: false };
      break;
    case "seat_out": seats[ev.seat].out = ev.reason; break;
    case "spare_used": seats[ev.seat].spares_left = ev.left; break;
    case "match_ended":
      s.status = "finished";
      s.result = ev.result;
      s.server_seed = ev.server_seed;
      if ("parts" in ev) s.parts = ev.parts;
      s.turn = null;
      break;
    case "autoplay":
      { const auto = { throws: ev.throws, single_covers: ev.single_covers };
        seats[ev.seat].autoplay = auto; }
      break;
    case "deadline":
      if (s.turn !== null) s.turn.due_at = ev.due_at;
      break;
    default: break;
  }
  s.seq = ev.seq;
  return s;
}
