// Lint: typescript-eslint's recommended rules, plus the project's safety rule: no HTML string
// ever reaches the DOM (views build nodes with d3-selection and set textContent only), and no
// function in the app over 150 lines. (web/lint.test.ts checks that both rules still fire.)
import tseslint from 'typescript-eslint';

const noHtml = 'build DOM nodes and set textContent instead (no unsanitised HTML anywhere)';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'public/**', 'build/**'] },
  ...tseslint.configs.recommended,
  // Emscripten --pre-js files run inside the generated CommonJS loader, where require() is the way.
  { files: ['wasm-core/wasm/*.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: `innerHTML is forbidden: ${noHtml}.` },
        { property: 'outerHTML', message: `outerHTML is forbidden: ${noHtml}.` },
        { property: 'insertAdjacentHTML', message: `insertAdjacentHTML is forbidden: ${noHtml}.` },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='html']",
          message: `selection.html() sets innerHTML: use .text() or ${noHtml}.`,
        },
        {
          selector: "CallExpression[callee.object.name='document'][callee.property.name=/^write(ln)?$/]",
          message: 'document.write is forbidden.',
        },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // No function in web/ over 150 lines, tests aside. A function's lines are counted from its
  // first line to its last, blank lines and comments included (what a reader scrolls through),
  // and the functions nested in it count towards it too; an IIFE is a function like any other.
  {
    files: ['web/**/*.ts', 'web/**/*.mjs'],
    ignores: ['web/**/*.test.ts', 'web/e2e/*.spec.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
);
