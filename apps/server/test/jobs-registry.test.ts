import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobNames, jobRegistry } from '../src/jobs/registry';
import { SmsActivateSupply } from '../src/providers/codes/smsActivate';
import { startTestApp, type TestApp } from './helpers';

const src = path.resolve(import.meta.dirname, '../src');

describe('the job registry (src/jobs/registry.ts)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // a real supplier (never called here): the supplier set's jobs are defined too
    t = await startTestApp({
      codeSupply: [
        new SmsActivateSupply({
          url: 'http://127.0.0.1:9',
          apiKey: 'sa-key-0123456789',
          pollEveryMs: 5000,
          priceRates: { usd: '100' },
        }),
      ],
    });
  });
  afterAll(() => t.close());

  it('lists every job a started server defines, and defines every job it lists', () => {
    const defined = [...t.app.deps.jobs.names()].sort();
    expect(defined).toEqual([...jobNames].sort());
  });

  it('names for each job the module that defines it and holds its handler', () => {
    for (const [name, entry] of Object.entries(jobRegistry)) {
      const file = path.join(src, entry.module);
      expect(existsSync(file), `${name}: ${entry.module} exists`).toBe(true);
      const text = readFileSync(file, 'utf8');
      // the name is written there as a string literal, and the module defines jobs
      expect(text.includes(`'${name}'`), `${name} is named in ${entry.module}`).toBe(true);
      // (a rental's renewal job is defined by the rentals engine from its kind's port: `job: '…'`)
      expect(
        text.includes('jobs.define(') || text.includes(`job: '${name}'`),
        `${entry.module} defines jobs`,
      ).toBe(true);
    }
  });
});
