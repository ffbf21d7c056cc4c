// Lints the widget's front end (src/), its unit tests (test/) and the build script.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "reference/", "test-harness/"] },
  js.configs.recommended,
  // `const { omitted, ...rest } = value` is how the code leaves a key out of a copy.
  { rules: { "no-unused-vars": ["error", { ignoreRestSiblings: true }] } },
  {
    files: ["src/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["build.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    // The tests run in node with jsdom's window installed as the browser globals (test/dom.js).
    files: ["test/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node, ...globals.browser } },
  },
];
