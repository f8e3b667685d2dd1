// Play now, a challenge and its acceptance make a match for several people at once, so
// each person brings a part of the server seed of their own (docs/fair-play.md, "Seeds
// made of parts"): this page asks for one (POST /api/commitments) and shows its SHA-256,
// and only then proposes a client seed made in this browser (static/client-seed.js).
// Each seek, challenge or acceptance takes the part shown and the seed in the field, and
// the page asks for a fresh part for the next one (a part is used once).
import { newSeed } from "./client-seed.js";
import { fetchCommitment, withHash } from "./commitment.js";
import { t } from "./i18n.js";

/** Ask again when the part held has less than this left (a page left open a day). */
const MARGIN_MS = 60_000;

export function ownPart(note, seedInput) {
  let held = null; // {commitment, expires_at}
  let failed = false;
  let asking = null;

  const show = () => {
    note.hidden = false;
    if (held) {
      withHash(note, t("Your part of the server's seed for your next match is fixed: its SHA-256 is {hash}.", { hash: "\u0001" }), held.commitment);
    } else {
      note.textContent = failed
        ? t("Your part of the server's seed could not be fixed just now: the server will make it with the match.")
        : t("Fixing your part of the server's seed…");
    }
    // The seed comes once the part it goes with is on screen.
    if ((held || failed) && !seedInput.value) seedInput.value = newSeed();
  };
  const ask = () => {
    if (!asking) {
      asking = fetchCommitment()
        .then((c) => { held = c; failed = false; })
        .catch(() => { held = null; failed = true; })
        .finally(() => { asking = null; show(); });
      show();
    }
    return asking;
  };
  const fresh = () => held && Date.parse(held.expires_at) - Date.now() > MARGIN_MS;
  ask();
  return {
    /** The fields a seek, challenge or acceptance sends; the next one gets new ones. */
    async take() {
      if (!fresh()) await ask();
      if (!seedInput.checkValidity()) {
        seedInput.closest("details")?.setAttribute("open", "");
        seedInput.reportValidity();
        throw new Error(t("Your client seed must be 1 to 64 letters, digits, _ or -."));
      }
      const fields = {};
      if (held) fields.commitment = held.commitment;
      if (seedInput.value) fields.client_seed = seedInput.value;
      held = null;
      seedInput.value = "";
      ask();
      return fields;
    },
  };
}
