import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'build/',
      '.react-router/',
      'node_modules/',
      '.data/',
      'drizzle/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message: 'app/ stays free of SQL: call a server function.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**', 'tests/**', 'bench/**', '*.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Playwright fixtures are functions taking `({}, use)`: not React hooks, and `{}` is their API.
    files: ['tests/browser/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
  {
    // Tests read loosely-typed JSON responses; `any` keeps assertions readable there.
    files: ['tests/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
