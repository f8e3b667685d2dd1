// Test runner for the browser verifier (src/jackpot/static/verify.js) under Node 20.
//
//   node run_verify.mjs verify FILE...    verify each record file ("-" = stdin), print a JSON list
//   node run_verify.mjs verify-lines      verify one record per line of stdin, print a JSON list
//   node run_verify.mjs call NAME ARGS    call an exported helper with a JSON list of arguments
//
// The static files are plain ES modules with a .js name and no package.json, so the
// tests run node with --experimental-detect-module.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// JACKPOT_CATALOG names a file with a page's script catalog ({"locale", "messages"}):
// the verifier then speaks that language, as on a page that embeds it.
if (process.env.JACKPOT_CATALOG) {
  const catalog = readFileSync(process.env.JACKPOT_CATALOG, "utf8");
  const lang = JSON.parse(catalog).locale;
  globalThis.document = {
    getElementById: (id) => (id === "i18n-catalog" ? { textContent: catalog } : null),
    documentElement: { lang },
  };
}
const modulePath = join(here, "..", "..", "src", "jackpot", "static", "verify.js");
const verifier = await import(pathToFileURL(modulePath).href);

function readText(path) {
  return readFileSync(path === "-" ? 0 : path, "utf8");
}

function plain(value) {
  // BigInt fractions become {num, den, value} so that Python can read them.
  if (value && typeof value === "object" && typeof value.num === "bigint") {
    return { num: String(value.num), den: String(value.den), value: value.toNumber() };
  }
  if (value instanceof Uint8Array) return Array.from(value);
  return value;
}

const [command, ...rest] = process.argv.slice(2);
let output;
if (command === "verify") {
  output = [];
  for (const path of rest.length ? rest : ["-"]) output.push(await verifier.verifyRecord(readText(path)));
} else if (command === "verify-lines") {
  output = [];
  for (const line of readText("-").split("\n")) {
    if (line.trim()) output.push(await verifier.verifyRecord(line));
  }
} else if (command === "call") {
  const [name, args = "[]"] = rest;
  const fn = verifier[name];
  if (typeof fn !== "function") throw new Error(`verify.js exports no function ${name}`);
  output = plain(await fn(...JSON.parse(args)));
} else {
  console.error("usage: run_verify.mjs verify FILE... | verify-lines | call NAME ARGS");
  process.exit(2);
}
process.stdout.write(JSON.stringify(output) + "\n");
