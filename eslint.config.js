// The linter's rules: ESLint's and typescript-eslint's recommended sets, without the
// type-aware ones (they would double the time of `npm run lint` for little here: the
// compiler runs with strict settings in `npm run typecheck`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        NodeJS: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-control-regex': 'off',
    },
  },
  {
    // Start-up cost, by construction (docs/performance.md): what a command loads, it loads for a reason.
    files: ['src/**'],
    ignores: ['src/core/count-text.ts', 'src/sim/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='localeCompare']",
          message: "compareKeys (src/core/canonical-json.ts): ICU's collation costs a run ~15 ms to load",
        },
        {
          selector: "CallExpression[callee.property.name='toLocaleString']",
          message: "countText (src/core/count-text.ts): Intl's number formats cost a run 13-20 ms to load",
        },
        {
          selector: 'ImportExpression[source.value=/run\\/index\\.js$/]',
          message: "import the run layer's modules a command uses: its index loads apply and export into every command",
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON answers: `any` is allowed there, not in src/.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
