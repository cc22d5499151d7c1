// ESLint for the web client (`make jscheck`): the recommended rules, the browser's
// globals, and no import cycle among the client's modules.
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import globals from "globals";

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
    },
  },
  {
    files: ["src/cardtable/server/static/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
