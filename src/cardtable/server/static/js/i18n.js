// Words of the interface in every shipped language, and how cards are written in each.
// The words live in the catalogues (src/cardtable/locale, docs/translating.md), served
// as the module /js/words.js; plural forms are chosen by the browser's CLDR rules.
// The language is remembered in localStorage; <html lang> follows it.
// The games' own words (piles, the lobby, suits, moves, bot levels) come from the one
// glossary the terminal and the messages read too (cardtable/glossary.py, served as
// /js/glossary.js); a text names one as {@term}, or {@^term} to start with a capital.

import { GLOSSARY } from "./glossary.js";
import { WORDS } from "./words.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The language of a first visit: the first of the browser's languages (its
 *  Accept-Language) that is shipped, else English. */
function browserLang() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const code = tag.toLowerCase().split("-")[0];
    if (code in WORDS) return code;
  }
  return "en";
}

// The choice is remembered per device (localStorage) and, signed in, per account.
let current = localStorage.getItem("cardtable.lang") || browserLang();
if (!(current in WORDS)) current = "en";
const listeners = new Set();

/** The shipped languages, as their catalogues list them. */
export const LANGS = Object.keys(WORDS);

export function lang() {
  return current;
}

/** The language chosen on this device (the menu, or an account's on signing in), or
 *  null while the page follows the browser's languages. */
export function chosenLang() {
  const chosen = localStorage.getItem("cardtable.lang");
  return chosen && chosen in WORDS ? chosen : null;
}

/** Language `code`'s name in itself ("Українська"), or its two letters ("УК"), as its
 *  own catalogue says it. */
export function langName(code, short = false) {
  const name = WORDS[code]?.[short ? "langShort" : "langName"];
  return typeof name === "string" ? name : code.toUpperCase();
}

/** Show the pages in `code` and keep it as this device's choice. */
export function setLang(code) {
  if (!(code in WORDS)) return;
  localStorage.setItem("cardtable.lang", code);
  if (code === current) return;
  current = code;
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

/** The glossary's word for term `key` in the current language ("" when it has none). */
export function term(key) {
  return GLOSSARY[current]?.[key] ?? GLOSSARY.en?.[key] ?? "";
}

/** CLDR's plural categories in the order a catalogue lists a message's forms. */
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
/** @type {Record<string, { rules: Intl.PluralRules, order: string[] }>} */
const plurals = {};

/** Which plural form of a count `n` the language uses: the form of its CLDR category
 * (Intl.PluralRules), in CLDR's order of the categories the language has (English
 * one, other; Ukrainian one, few, many). */
export function pluralIndex(n, code = current) {
  if (!plurals[code]) {
    const rules = new Intl.PluralRules(code);
    const own = /** @type {string[]} */ (rules.resolvedOptions().pluralCategories);
    plurals[code] = { rules, order: CATEGORIES.filter((category) => own.includes(category)) };
  }
  const { rules, order } = plurals[code];
  return Math.max(0, order.indexOf(rules.select(Math.abs(Number(n)))));
}

/** The word for `key` in the current language, with {name} placeholders and the
 * glossary's {@term} / {@^term} filled in. An entry that is a list holds plural forms,
 * chosen by `params.n`. */
export function t(key, params = {}) {
  let text = WORDS[current][key] ?? WORDS.en[key] ?? key;
  if (Array.isArray(text)) text = text[Math.min(pluralIndex(params.n ?? 0), text.length - 1)];
  return text
    .replace(/\{@(\^?)([\w.]+)\}/g, (_, cap, name) => {
      const word = term(name);
      return cap ? word.charAt(0).toUpperCase() + word.slice(1) : word;
    })
    .replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : ""));
}

/** A seat's name as the player reads it: a bot seat by its role and level in the
 *  player's language («Бот (легкий)»), whatever name the server stored for it. */
export function seatName(seat) {
  if (seat.role === "bot" && seat.level && GLOSSARY.en[`level.${seat.level}`]) {
    return botName(seat.level);
  }
  return seat.name ? playerName(seat.name) : t("seat", { n: seat.index + 1 });
}

function botName(level) {
  return `${term("bot")} (${term(`level.${level}`)})`;
}

/** A name as a record keeps it, for the reader: the server's name of a bot seat
 *  ("Bot (easy)") in the player's language; any other name as it is. */
export function playerName(name) {
  const bot = /^Bot \((\w+)\)$/.exec(name);
  return bot && GLOSSARY.en[`level.${bot[1]}`] ? botName(bot[1]) : name;
}

/** Split record card text ("10H") into rank and suit letters. */
export function splitCard(text) {
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** The rank as shown: the language's card face (Ukrainian В Д К Т for J Q K A). */
export function rankText(rank) {
  return term(`rank_face.${rank}`) || rank;
}

export function suitSymbol(suit) {
  return SUIT_SYMBOL[suit] ?? suit;
}

export function suitName(suit) {
  return term(`suit.${suit}`) || suit;
}

/** A card for the eye: "Д♠". */
export function cardText(text) {
  const { rank, suit } = splitCard(text);
  return rankText(rank) + suitSymbol(suit);
}

/** A card for the ear (screen readers): "queen of spades" / "дама пік", the words in
 *  the language's order (its glossary's card_name). */
export function cardSpoken(text) {
  const { rank, suit } = splitCard(text);
  const name = term(`rank.${rank}`) || rank;
  return (term("card_name") || "{rank} of {suit}").replace("{rank}", name).replace("{suit}", suitName(suit));
}

/** A move in record notation, with its cards written for people ("play 10♥ В♥"). */
export function moveText(move) {
  return move
    .split(" ")
    .map((word) => {
      if (/^(10|[2-9JQKA])[SHDC]$/.test(word)) return cardText(word);
      if (/^[SHDC]$/.test(word)) return suitSymbol(word);
      return current === "en" ? word : term(`move.${word}`) || word;
    })
    .join(" ");
}

document.documentElement.lang = current;
