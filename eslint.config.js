import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), 'apps/web/src');
/** The web client's feature folders, each its own lint zone (a new one is covered as it appears). */
const webFeatures = readdirSync(path.join(web, 'features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** The query client's methods that take a query key (or filters holding one). */
const queryClientMethods =
  'getQueryData|setQueryData|getQueriesData|setQueriesData|getQueryState|removeQueries|resetQueries|cancelQueries|invalidateQueries|refetchQueries|fetchQuery|prefetchQuery|ensureQueryData|fetchInfiniteQuery|prefetchInfiniteQuery|isFetching';

/** libphonenumber is read only through the contract's phone.ts (issue 9, hole 3). */
const onePhoneMetadata = {
  group: ['libphonenumber-js', 'libphonenumber-js/*'],
  message: 'Phones go through @numa/contract (phone.ts): one metadata set, one E.164 split.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/.test-bundles/**',
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
          patterns: [onePhoneMetadata],
        },
      ],
    },
  },
  // The web client names the calls it makes through the contract's endpoints namespace: a chunk then
  // holds (and builds at its load) the schemas of its own calls; the `endpoints` registry holds every
  // call's, and imported anywhere it put the whole contract into the first load (docs/decisions.md).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [onePhoneMetadata],
          paths: [
            {
              name: '@numa/contract',
              importNames: ['endpoints'],
              message:
                "import * as endpoints from '@numa/contract/endpoints' (one chunk builds only its calls' schemas).",
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
  // The web client imports one way (docs/architecture.md "Web", issue 19 §3): shared (lib/, stores/,
  // components/, shared/, the contract) → features → app/. A feature imports no other feature and
  // never app/; the shell (app/) composes them through its registries and slots. lib/, stores/ and
  // components/ are below shared/. No import cycle (madge checks the same in `npm run lint`, type
  // imports included).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      // no-cycle reads the imported modules themselves: TypeScript's parser for them
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: web,
          zones: [
            {
              target: ['./lib', './stores', './components', './shared', './locales', './test'],
              from: ['./features', './app', './plans-page'],
              message: 'The shared layer is below the features and the shell: move what it needs down.',
            },
            {
              target: ['./lib', './stores', './components'],
              from: './shared',
              message: 'lib/, stores/ and components/ are below shared/.',
            },
            {
              target: './features',
              from: ['./app', './plans-page'],
              message:
                'A feature never imports the shell: the shell plugs features in (app/panels.ts, areas.ts, chats.ts).',
            },
            ...webFeatures.map((f) => ({
              target: `./features/${f}`,
              from: './features',
              except: [`./${f}`],
              message:
                'A feature never imports another feature: move what both need to shared/ (or lib/, components/), or compose them in app/.',
            })),
            {
              target: './plans-page',
              from: ['./app', './features', './shared', './components', './stores'],
              message: 'The embedded plans page is a build of its own.',
            },
          ],
        },
      ],
    },
  },
  // Every API call sits in an api/ folder (a feature's, or shared/api), next to its query hook.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/api/**', 'apps/web/src/plans-page/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/api'],
              importNames: ['call', 'callMultipart'],
              message: "API calls live in the area's api/ folder, with their query hook.",
            },
          ],
        },
      ],
    },
  },
  // One place builds every query key (lib/queryKeys.ts); no key is written out anywhere else.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/queryKeys.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: 'Query keys come from lib/queryKeys.ts (queryKeys.<area>.<what>()).',
        },
        {
          selector: `CallExpression[callee.property.name=/^(${queryClientMethods})$/] > ArrayExpression.arguments`,
          message: 'Query keys come from lib/queryKeys.ts (queryKeys.<area>.<what>()).',
        },
      ],
    },
  },
  // The server's layers (docs/architecture.md): routes and the socket layer call services only; services
  // call repositories (all SQL) and get the database facade for transactions from deps, never Kysely.
  {
    files: ['apps/server/src/routes/**', 'apps/server/src/realtime/**', 'apps/server/src/api/**'],
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
      'apps/server/src/api/**',
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
  {
    // the server, its tests, the benches and the end-to-end tests are type-checked as one program with
    // the DOM's types (tsconfig.node.json: the benches and e2e hand functions to the browser); the
    // server's own code must not lean on them
    files: ['apps/server/src/**', 'packages/contract/src/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'localStorage',
          'sessionStorage',
          'location',
          'navigator',
          'HTMLElement',
        ].map((name) => ({
          name,
          message: 'A browser global: the server and the contract run without a DOM.',
        })),
      ],
    },
  },
);
