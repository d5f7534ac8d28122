import { execFileSync } from 'node:child_process';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../src/lib/lazy';

/** issue 24 §5: Fastify's JSON-schema compilers load when a route first needs them, not at start. */
describe("Fastify's schema compilers, loaded on first use", () => {
  it('validate and serialize a route with JSON schemas as Fastify does by default', async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
    app.get(
      '/sum',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: { a: { type: 'integer' }, b: { type: 'integer' } },
            required: ['a', 'b'],
          },
          response: {
            200: { type: 'object', properties: { sum: { type: 'integer' } }, additionalProperties: false },
          },
        },
      },
      async (req) => {
        const { a, b } = req.query as { a: number; b: number };
        // the serializer keeps only what the response schema names
        return { sum: a + b, internal: 'not sent' };
      },
    );
    const ok = await app.inject({ url: '/sum?a=2&b=3' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ sum: 5 });
    const bad = await app.inject({ url: '/sum?a=2&b=x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/querystring\/b must be integer/);
    await app.close();
  });

  it('are not loaded by a Fastify whose routes declare none (the server: every call validates with zod)', () => {
    // a process of its own: this one's module cache holds whatever other suites loaded
    const loaded = (lazy: boolean) =>
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const { lazySchemaCompilers } = await import('./src/lib/lazy.ts');
           const { default: Fastify } = await import('fastify');
           const app = Fastify(${lazy ? '{ schemaController: { compilersFactory: lazySchemaCompilers } }' : ''});
           app.get('/', async () => ({ ok: true }));
           await app.ready();
           const { createRequire } = await import('node:module');
           const cache = Object.keys(createRequire(import.meta.url).cache);
           console.log(JSON.stringify(['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'].filter((p) => cache.some((f) => f.includes(p)))));
           await app.close();`,
        ],
        { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8' },
      ).trim();
    expect(JSON.parse(loaded(true))).toEqual([]);
    // the control: Fastify's default constructor loads both
    expect(JSON.parse(loaded(false))).toEqual([
      '@fastify/ajv-compiler',
      '@fastify/fast-json-stringify-compiler',
    ]);
  });
});
