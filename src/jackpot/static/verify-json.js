// The record's text read as JSON, and where it breaks when it is not: the browser's own
// message (JSON.parse's) is in English and differs from one browser to the next, so the
// verifier finds the line and column itself and says them in the page's language.

import { fail } from "./verify-shape.js";
import { V } from "./verify-words.js";

/** Thrown by the scanner at the first character that cannot be JSON. */
class Broken extends Error {}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPED = '"\\/bfnrt';
const HEX = /^[0-9a-fA-F]{4}$/;

/**
 * Where `text` stops being JSON: the index of the first character that cannot be part
 * of a JSON text (text.length when it ends too soon), or -1 when it is JSON. It follows
 * the grammar JSON.parse takes, so it finds the place that parser gave up at.
 */
export function jsonErrorAt(text) {
  let i = 0;
  const broken = () => {
    throw new Broken();
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i += 1;
  };
  const expect = (char) => {
    if (text[i] !== char) broken();
    i += 1;
  };
  const word = (w) => {
    for (const char of w) expect(char);
  };
  const string = () => {
    expect('"');
    while (i < text.length) {
      const char = text[i];
      if (char === '"') {
        i += 1;
        return;
      }
      if (char === "\\") {
        i += 1;
        if (text[i] === "u") {
          if (!HEX.test(text.slice(i + 1, i + 5))) broken();
          i += 5;
        } else if (i < text.length && ESCAPED.includes(text[i])) {
          i += 1;
        } else {
          broken();
        }
      } else if (char < " ") {
        broken();
      } else {
        i += 1;
      }
    }
    broken();
  };
  const value = () => {
    space();
    const char = text[i];
    if (char === "{" || char === "[") {
      const close = char === "{" ? "}" : "]";
      i += 1;
      space();
      if (text[i] === close) {
        i += 1;
        return;
      }
      for (;;) {
        if (close === "}") {
          space();
          string();
          space();
          expect(":");
        }
        value();
        space();
        if (text[i] === ",") {
          i += 1;
        } else {
          expect(close);
          return;
        }
      }
    }
    if (char === '"') return string();
    if (char === "t") return word("true");
    if (char === "f") return word("false");
    if (char === "n") return word("null");
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (!number) broken();
    i += number[0].length;
  };
  try {
    value();
    space();
    return i < text.length ? i : -1;
  } catch (err) {
    if (err instanceof Broken) return i;
    return -1; // nested too deep to follow: no place to name
  }
}

/** The record's text as a value, or a Problem saying in words where the text breaks. */
export function parseRecord(text) {
  try {
    return JSON.parse(text);
  } catch {
    const at = jsonErrorAt(text);
    if (at < 0) fail(V.notJson());
    if (at >= text.length) fail(V.cutShort());
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    fail(V.notJsonAt(line, column));
  }
}
