// Rebuild src/cardtable/server/static/cards/ from the npm package @letele/playing-cards
// (CC0 1.0; Adrian Kennard's card designs, https://www.me.uk/cards/). The package ships
// its cards as React components, not as SVG files: this script runs each component with
// a stand-in for React.createElement that writes SVG markup, and saves the 52 faces under
// the record's card names (QS.svg, 10H.svg: docs/records.md, Cards) and one back
// (back.svg, the package's red B2). Nothing else of the package is kept.
//
//   cd /tmp && npm pack @letele/playing-cards@0.1.0 && tar xzf letele-playing-cards-0.1.0.tgz
//   node scripts/vendor-cards.mjs /tmp/package src/cardtable/server/static/cards
//
// Usage: node vendor-cards.mjs PACKAGE_DIR OUT_DIR (the package's LICENSE is copied too).

import fs from "node:fs";
import path from "node:path";

const [packageDir, outDir] = process.argv.slice(2);
if (!packageDir || !outDir) {
  console.error("usage: node vendor-cards.mjs PACKAGE_DIR OUT_DIR");
  process.exit(2);
}
const source = fs.readFileSync(path.join(packageDir, "dist", "index.esm.js"), "utf8");

// React's camelCase props back to SVG attribute names; these three are camelCase in SVG.
const CAMEL_IN_SVG = new Set(["viewBox", "preserveAspectRatio", "patternUnits"]);
const SPECIAL = { className: "class", xlinkHref: "xlink:href", xmlnsXlink: "xmlns:xlink" };
const attrName = (key) =>
  SPECIAL[key] || (CAMEL_IN_SVG.has(key) ? key : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
const escape = (value) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** Markup already written (not to be escaped again). */
class Markup {
  constructor(text) {
    this.text = text;
  }
}

const React = {
  createElement(tag, props, ...children) {
    const attrs = Object.entries(props || {})
      .filter(([key, value]) => value !== undefined && value !== null && key !== "aria-labelledby")
      .map(([key, value]) => ` ${attrName(key)}="${escape(value)}"`)
      .join("");
    const inner = children
      .flat()
      .filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (c instanceof Markup ? c.text : escape(c)))
      .join("");
    return new Markup(inner ? `<${tag}${attrs}>${inner}</${tag}>` : `<${tag}${attrs}/>`);
  },
};

// The bundle: its imports dropped, its export list turned into a returned object.
const exported = source.match(/export \{([^}]*)\};?/)[1];
const body = source.replace(/^import .*$/gm, "").replace(/export \{[^}]*\};?/, "");
const pairs = exported.split(",").map((s) => s.trim().split(/\s+as\s+/));
const deck = new Function("React", "_extends", `${body}\nreturn {${pairs.map(([local, name]) => `"${name}": ${local}`).join(",")}};`)(
  React,
  Object.assign,
);

// Package names: suit letter then rank (Sq, H10, Da); the record's: rank then suit (QS).
const RANKS = { a: "A", j: "J", q: "Q", k: "K" };
fs.mkdirSync(outDir, { recursive: true });
let written = 0;
for (const [name, component] of Object.entries(deck)) {
  const match = /^([SHDC])(a|j|q|k|10|[2-9])$/.exec(name);
  const file = match ? `${RANKS[match[2]] || match[2]}${match[1]}.svg` : name === "B2" ? "back.svg" : null;
  if (!file) continue; // the jokers and the other back: no game of ours uses them
  fs.writeFileSync(path.join(outDir, file), `<?xml version="1.0" encoding="UTF-8"?>\n${component({}).text}\n`);
  written += 1;
}
fs.copyFileSync(path.join(packageDir, "LICENSE"), path.join(outDir, "LICENSE"));
console.log(`${written} cards written to ${outDir}`);
