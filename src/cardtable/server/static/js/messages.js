// The engines' refusals in the player's language. The server serves the engines'
// message catalog (src/cardtable/messages.py) as JSON at /api/messages?lang=…; a
// refused move carries its message_id and params, and this module says them by the
// catalog's own rules, so the browser, the terminal and the CLI read one source:
//   {name}            the parameter, shown as its content is shown in the language
//   {name!r}          the parameter as Python's repr writes it (English quoting)
//   {name:a}          with the English article: "a 7", "an 8", "an A"
//   {name:f1|f2|f3}   a plural form for the number ("#" stands for it)
//   {{ and }}         literal braces
// A parameter's content is the last part of its name: card, cards, rank, ranks (joined
// by "-"), suit, term.

import { lang, pluralIndex } from "./i18n.js";

const catalogs = {}; // language -> Promise of its catalog

/** The catalog of language `code`, fetched once. */
export function loadMessages(code = lang()) {
  if (!catalogs[code]) {
    catalogs[code] = fetch(`/api/messages?lang=${encodeURIComponent(code)}`)
      .then((response) => {
        if (!response.ok) throw new Error(`messages: ${response.status}`);
        return response.json();
      })
      .catch((err) => {
        delete catalogs[code]; // try again next time
        throw err;
      });
  }
  return catalogs[code];
}

/** A refusal (message id and params) in language `code`; null when it cannot be said. */
export async function refusalText(messageId, params, code = lang()) {
  if (!messageId) return null;
  try {
    return renderMessage(await loadMessages(code), messageId, params || {});
  } catch {
    return null;
  }
}

const FIELD = /\{\{|\}\}|\{(\w+)(?:!(\w))?(?::([^{}]*))?\}/g;

/** Message `id` of `catalog` with `params`, or null for an id the catalog lacks. */
export function renderMessage(catalog, id, params) {
  const template = catalog.messages[id];
  if (template === undefined) return null;
  return template.replace(FIELD, (whole, name, conversion, spec) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = params[name];
    if (conversion === "r") return pythonRepr(value);
    if (spec && spec.includes("|")) return plural(catalog.lang, Number(value), spec);
    const text = paramText(catalog, name, value);
    return spec === "a" ? article(text) + text : text;
  });
}

function paramText(catalog, name, value) {
  const content = name.split("_").pop();
  const text = String(value ?? "");
  switch (content) {
    case "term":
      return catalog.messages[text] ?? text;
    case "suit":
      return catalog.suits[text] ?? text;
    case "rank":
      return catalog.ranks[text] ?? text;
    case "ranks":
      return text.split("-").map((rank) => catalog.ranks[rank] ?? rank).join("-");
    case "card":
      return card(catalog, text);
    case "cards":
      return text ? text.split(" ").map((c) => card(catalog, c)).join(" ") : "";
    default:
      return text;
  }
}

function card(catalog, text) {
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  return (catalog.ranks[rank] ?? rank) + (catalog.suits[suit] ?? suit);
}

function article(text) {
  return text.startsWith("8") || text.startsWith("A") ? "an " : "a ";
}

function plural(code, number, spec) {
  const forms = spec.split("|");
  const index = pluralIndex(number, code);
  return forms[Math.min(index, forms.length - 1)].replaceAll("#", String(number));
}

const UNPRINTABLE = /[\p{C}\p{Z}]/u;
const ESCAPES = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** A string as Python's repr writes it: 'ZZ', "it's", '\t'. */
function pythonRepr(value) {
  if (typeof value !== "string") return String(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of value) {
    if (ch === quote) out += `\\${ch}`;
    else if (ch in ESCAPES) out += ESCAPES[ch];
    else if (ch !== " " && UNPRINTABLE.test(ch)) {
      const point = ch.codePointAt(0);
      const [prefix, width] = point < 0x100 ? ["x", 2] : point < 0x10000 ? ["u", 4] : ["U", 8];
      out += `\\${prefix}${point.toString(16).padStart(width, "0")}`;
    } else out += ch;
  }
  return out + quote;
}
