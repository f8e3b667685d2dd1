// A die as the board draws it: its pips in an inline SVG (drawn in the die's own text
// colour, so a forced-colours screen keeps them), its value in a hidden text beside
// them, and a label for screen readers ("die showing 5"). The match page and the
// replay use it; a short roll plays only where motion is welcome (site.css).

const SVG = "http://www.w3.org/2000/svg";
// Where the pips sit on a face of 100 by 100: corners, middle row and centre.
const AT = { tl: [26, 26], tr: [74, 26], ml: [26, 50], c: [50, 50], mr: [74, 50], bl: [26, 74], br: [74, 74] };
const FACES = {
  1: ["c"],
  2: ["tr", "bl"],
  3: ["tr", "c", "bl"],
  4: ["tl", "tr", "bl", "br"],
  5: ["tl", "tr", "c", "bl", "br"],
  6: ["tl", "tr", "ml", "mr", "bl", "br"],
};

/** One die showing `value`; `label` is what a screen reader says of it. */
export function dieElement(value, label, { dead = false, tag = "span" } = {}) {
  const die = document.createElement(tag);
  die.className = dead ? "die dead" : "die";
  die.setAttribute("role", "img");
  die.setAttribute("aria-label", label);
  die.dataset.pips = String(value);
  const face = FACES[value];
  const text = document.createElement("span");
  // Hidden where pips show it; not a die's face (never thrown): the value as it is.
  text.className = face ? "die-value visually-hidden" : "die-value";
  text.textContent = value;
  die.append(text);
  if (!face) return die;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("pips");
  for (const spot of face) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", AT[spot][0]);
    pip.setAttribute("cy", AT[spot][1]);
    pip.setAttribute("r", 9);
    svg.append(pip);
  }
  die.append(svg);
  return die;
}

/** Put `dice` in `box`, rolling them in if `roll` (a new throw, not a redraw). */
export function showDice(box, dice, labelOf, { dead = false, roll = false, tag = "span" } = {}) {
  box.replaceChildren(
    ...dice.map((d, i) => {
      const die = dieElement(d, labelOf(d), { dead, tag });
      if (roll) {
        die.classList.add("rolling");
        die.style.setProperty("--i", i);
      }
      return die;
    }),
  );
}
