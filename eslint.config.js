// ESLint for the web client (`make jscheck`): the recommended rules, the browser's
// globals, no import cycle among the client's modules, and no words for the player
// written in the code: every text a page shows comes from the catalogues through t()
// (docs/translating.md), so a string of two words or more that is not a class list is
// refused.
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import globals from "globals";

// Words separated by a space (letters of any shipped language), except a list of
// lowercase names such as CSS classes or a move's text ("card face lifted",
// `pile suit-${suit}`, `place points ${n}`).
const WORDS = "/[A-Za-zÀ-ɏЀ-ӿ]{2},?\\s+[A-Za-zÀ-ɏЀ-ӿ]{2}/";
// In a template's fixed parts, also a capitalised word beside a space (`Hello ${name}`).
const WORD = "/[A-Za-zÀ-ɏЀ-ӿ]{2},?\\s+[A-Za-zÀ-ɏЀ-ӿ]{2}|[A-ZÀ-ÖØ-ÞЀ-Я][a-zß-ÿа-ӿ]+\\s|\\s[A-ZÀ-ÖØ-ÞЀ-Я][a-zß-ÿа-ӿ]/";
const NAMES = "/^\\s*[a-z0-9-]+(\\s+[a-z0-9-]*)*\\s*$/";
const TEXT_IN_CODE = ["Literal", "TemplateElement[value.cooked]"].map((node) => ({
  selector:
    node === "Literal"
      ? `Literal[value=${WORDS}]:not([value=${NAMES}])`
      : `TemplateElement[value.cooked=${WORD}]:not([value.cooked=${NAMES}])`,
  message: "Text for the player comes from the catalogues: t(\"id\") (docs/translating.md).",
}));

export default [
  js.configs.recommended,
  {
    files: ["src/cardtable/server/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    plugins: { "import-x": importX },
    rules: {
      "import-x/no-cycle": ["error", { maxDepth: Infinity, ignoreExternal: true }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-restricted-syntax": ["error", ...TEXT_IN_CODE],
    },
  },
  {
    files: ["src/cardtable/server/static/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
