import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const webRoot = path.resolve(import.meta.dirname, '..');

/** How Vite resolves a build of one config in a shell whose NODE_ENV is `nodeEnv` (a process of its own). */
function resolved(configFile: string, nodeEnv: string, mode = 'production') {
  const script = `
    import { resolveConfig } from 'vite';
    const c = await resolveConfig(
      { root: ${JSON.stringify(webRoot)}, configFile: ${JSON.stringify(configFile)}, logLevel: 'silent', mode: ${JSON.stringify(mode)} },
      'build', 'production', 'production');
    console.log(JSON.stringify({ isProduction: c.isProduction, nodeEnv: process.env.NODE_ENV }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: webRoot,
    env: { ...process.env, NODE_ENV: nodeEnv },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as { isProduction: boolean; nodeEnv: string };
}

/**
 * Issue 19 §6: `vite build` (npm run build, npm start) makes the production bundle whatever NODE_ENV
 * the shell has. The bundle itself is checked by e2e/tests/first-load.spec.ts (no React development
 * build in the entry), built by `npm test` with NODE_ENV=development (scripts/test.mjs).
 */
describe('the web build does not depend on the shell', () => {
  it.each(['vite.config.ts', 'vite.plans.config.ts'])(
    '%s builds for production under NODE_ENV=development',
    (config) => {
      expect(resolved(config, 'development')).toEqual({ isProduction: true, nodeEnv: 'production' });
    },
    30_000,
  );

  it('still makes a development build when asked for one by its mode', () => {
    expect(resolved('vite.config.ts', 'development', 'development')).toEqual({
      isProduction: false,
      nodeEnv: 'development',
    });
  }, 30_000);
});
