// A person's client seed is made here, in their browser (Web Crypto), never by the
// server: a seed the server wrote into the page would add nothing it did not know.
// Every field that proposes one ([data-browser-seed]) is filled once the commitment the
// seed goes with is on screen: at once on a page that shows it already (a match to
// join), by static/commitment.js once it fetched one for a form that starts a match.
// Left empty (no scripts), the server makes the seed and the record says so.

/** 16 random hex characters (8 bytes) from the browser's cryptographic generator. */
export function newSeed() {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Fill every empty proposed-seed field under `root`. */
export function fillSeeds(root) {
  for (const input of root.querySelectorAll("input[data-browser-seed]")) {
    if (!input.value) input.value = newSeed();
  }
}

// A join form: the match's commitment is on the page already.
for (const form of document.querySelectorAll("form:not([data-starts-match])")) {
  if (form.querySelector("input[data-browser-seed]")) fillSeeds(form);
}
