// The linter of the whole tree (docs/architecture.md). Type-aware where it matters: a promise must be awaited,
// returned or marked `void` on purpose, and never used where a condition or a callback's value is expected.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.tmp/**', 'api/clients/typescript/src/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // The house idioms: `void (x = …)` in arrow bodies, comma sequences in small callbacks.
      'no-sequences': 'off',
      'no-cond-assign': ['error', 'except-parens'],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { module: 'readonly', require: 'readonly', process: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The onboarding pages' script runs in the browser.
    files: ['api/onboardingPages/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'location',
          'history',
          'fetch',
          'URLSearchParams',
          'FormData',
          'Headers',
          'btoa',
          'crypto',
          'sessionStorage',
          'localStorage',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
