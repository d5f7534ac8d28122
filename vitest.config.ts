import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { splitTexts } from './apps/web/scripts/textParts';

const serverProject = (name: string, env: Record<string, string>): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: 'apps/server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // in CI these run beside the end-to-end tests on 2 cores: a test that ran out of time there (a
    // child server slow to start, a 30 s deadline passed with every step slow) gets one more try,
    // which the report shows; locally a failure stays a failure
    retry: process.env.CI ? 1 : 0,
    pool: 'forks',
    // one process per worker for all its suites, not one per suite: each suite already has its own
    // database (a PGlite copy or a PostgreSQL schema), app and clock, and importing the server's
    // module graph again for each of 63 suites was half of the run (server suites: 328 s → 182 s)
    isolate: false,
    env,
  },
});

/** The suites that take a minute or more (work over 10,000 due rows; five servers killed in a row). */
const long = /(-scale|\/crash)\.test\.ts$/;

/**
 * The order of the files: vitest's own (by project; then, with no durations cached, as on a clean
 * clone, the largest files first), except that in each project the long suites go first. They are
 * small files, so they ran last, and the run ended with one worker on a 75 s suite while the other
 * had nothing left to do; started first, they run beside the short ones.
 */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (long.test(f.moduleId) ? 0 : 1);
    // stable: vitest's order within each group
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) =>
        a.f.project.name !== b.f.project.name ? a.i - b.i : rank(a.f) - rank(b.f) || a.i - b.i,
      )
      .map(({ f }) => f);
  }
}

/**
 * One runner for the unit and integration suites: the contract, the server (app.inject, socket.io
 * clients, PGlite and, with TEST_DATABASE_URL, PostgreSQL) and the web client's units (jsdom).
 * End-to-end tests in Chromium run with Playwright (e2e/).
 */
export default defineConfig({
  test: {
    // vitest's default on a 2-core machine is one worker (cores − 1), which leaves a core idle while
    // the suites wait on their databases and sockets; each suite has its own database (a PGlite copy
    // or a PostgreSQL schema) and its own Redis key prefix, so two run side by side safely
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    projects: [
      // the docs name only files that exist (issue 19 §5)
      { test: { name: 'docs', root: '.', include: ['docs/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      // The server suites run on embedded PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
      serverProject('server', { NUMA_TEST_DB: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', { NUMA_TEST_DB: 'postgres' })] : []),
      {
        // the locales' `?texts=` parts (apps/web/vite.config.ts), each the whole file here
        plugins: [splitTexts({ whole: true })],
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          // one jsdom per worker, not per suite (54.6 s → 14.3 s); src/test/setup.ts cleans up after each test
          isolate: false,
          // the virtual-list suites (10,000 rows in jsdom) took over the default 5 s on a loaded machine;
          // npm test runs these beside the end-to-end tests
          testTimeout: 20_000,
        },
      },
    ],
  },
});
