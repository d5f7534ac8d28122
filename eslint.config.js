import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // One phone-number metadata set for the whole product (issue 9, hole 3): libphonenumber is read
  // only through the contract's phone.ts (its own rule name, so the layer rules below do not replace it).
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts'],
    ignores: ['packages/contract/src/phone.ts', '**/scripts/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['libphonenumber-js', 'libphonenumber-js/*'],
              message: 'Phones go through @numa/contract (phone.ts): one metadata set, one E.164 split.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // The server's layers (docs/architecture.md): routes and the socket layer call services only; services
  // call repositories (all SQL) and get the database facade for transactions from deps, never Kysely.
  {
    files: ['apps/server/src/routes/**', 'apps/server/src/realtime/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['kysely', 'kysely/*', 'pg', '@electric-sql/*'],
              message: 'Routes and the socket layer call services; the database stays behind them.',
            },
            {
              group: ['**/db', '**/db/*'],
              message: 'Routes and the socket layer call services; the database stays behind them.',
            },
            {
              group: ['**/repositories', '**/repositories/*'],
              message: 'Routes and the socket layer call services, not repositories.',
            },
            { group: ['**/jobs/*'], message: 'Use app.deps.jobs.' },
          ],
        },
      ],
    },
  },
  {
    // the database facade reaches services (for db.tx), but building SQL on it is the repositories' job
    files: [
      'apps/server/src/services/**',
      'apps/server/src/jobs/**',
      'apps/server/src/routes/**',
      'apps/server/src/realtime/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|mergeInto|with|withRecursive|executeQuery)$/]',
          message: 'SQL lives in src/repositories: call a repository function.',
        },
      ],
    },
  },
  {
    files: ['apps/server/src/services/**', 'apps/server/src/jobs/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['kysely', 'kysely/*', 'pg', '@electric-sql/*'],
              message: 'SQL lives in src/repositories; services call repository functions.',
            },
            {
              group: ['**/db/*'],
              message: 'Only the facade types of src/db (Database, Q, Tx) reach services.',
            },
            {
              group: ['**/db'],
              allowTypeImports: true,
              message: 'Services get the database from deps; import its types only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/cli/**', 'scripts/**', '**/scripts/**', 'bench/**', '**/build.mjs', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
);
