// The page's language for the scripts: t() and tn() read the catalog the server put
// in the page (#i18n-catalog, compiled from locale/<lang>/LC_MESSAGES/js.po), and fall
// back to the English text they are given. Placeholders are {name}; tn() also fills {n}.
// Outside a page (node, in the tests) there is no catalog: English.
const page = typeof document !== "undefined" ? document : null;
const element = page ? page.getElementById("i18n-catalog") : null;
const catalog = element ? JSON.parse(element.textContent || "{}") : {};
const messages = catalog.messages || {};

/** The language of the page, as in <html lang>: "en", "pt", "ms", "et" or "sk". */
export const lang = (page && page.documentElement.lang) || "en";

/** Whose conventions numbers, lists and dates follow: the site's Portuguese is
 * Portugal's ("12 345,5"), where Intl's plain "pt" is Brazil's ("12.345,5"). */
export const intlLocale = lang === "pt" ? "pt-PT" : lang;

// Which plural form a count takes: the same rules as each js.po's Plural-Forms header
// (tests/i18n checks that they agree). Portuguese is Portugal's: only 1 is singular
// ("0 pontos", CLDR pt_PT), not Brazil's rule where 0 is too.
const PLURALS = {
  en: (n) => (n === 1 ? 0 : 1),
  pt: (n) => (n === 1 ? 0 : 1),
  ms: () => 0,
  et: (n) => (n === 1 ? 0 : 1),
  sk: (n) => (n === 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2),
};

export function pluralForm(language, n) {
  return (PLURALS[language] || PLURALS.en)(n);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** The translation of `text`, its {placeholders} filled from `params`. */
export function t(text, params = {}) {
  const found = messages[text];
  return fill(typeof found === "string" && found ? found : text, params);
}

/** The form of `singular`/`plural` that fits `n`, with {n} and `params` filled. */
export function tn(singular, plural, n, params = {}) {
  const forms = messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const form = forms[pluralForm(lang, n)];
    if (form) text = form;
  }
  return fill(text, { n: formatNumber(n), ...params });
}

/**
 * A player's name as the page shows it: a guest's default name, which the site stores
 * (and the record keeps) in English as "Guest 1a2b", in the page's language; any other
 * name as it is. The same rule as i18n/names.py on the server.
 */
export function shownName(name) {
  const found = /^Guest ([0-9a-f]{4})$/.exec(name || "");
  return found ? t("Guest {tag}", { tag: found[1] }) : name;
}

/** A number the page's way: 3.5 in English, 3,5 in Portuguese. */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(intlLocale, options).format(value);
}

/** A share of 1 as a percentage the page's way, with `digits` decimals. */
export function formatPercent(share, digits = 1) {
  return new Intl.NumberFormat(intlLocale, {
    style: "percent",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(share);
}

/** "2, 5 and 7" the page's way ("2, 5 e 7", "2, 5 a 7"). */
export function andList(items) {
  const words = items.map(String);
  if (typeof Intl.ListFormat !== "function") return words.join(", ");
  return new Intl.ListFormat(intlLocale, { style: "long", type: "conjunction" }).format(words);
}

/** "2, 5 or 7" the page's way. */
export function orList(items) {
  const words = items.map(String);
  if (typeof Intl.ListFormat !== "function") return words.join(", ");
  return new Intl.ListFormat(intlLocale, { style: "long", type: "disjunction" }).format(words);
}

/** A bot's strength ("lowest", "highest", "best", as records name it) as the rule it
 * plays by, a noun phrase ("lowest tile"): an adjective alone slotted into a sentence
 * read as "the tallest bot" in Portuguese. */
export function strengthName(strength) {
  return (
    { lowest: t("lowest tile"), highest: t("highest tile"), best: t("best move") }[strength] ||
    String(strength)
  );
}
