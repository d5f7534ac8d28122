import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { type z } from 'zod';
import { webhookEventTypes } from '@numa/contract/developer';
import { registry } from './route';

/** The rate-limit fields every answer carries (IETF draft RateLimit header fields). */
const rateHeaders = {
  RateLimit: {
    description: 'What is left of this key’s budget and when it resets: "key";r=<remaining>;t=<seconds>',
    schema: { type: 'string' as const },
  },
  'RateLimit-Policy': {
    description: 'This key’s budget: "key";q=<calls>;w=<seconds>',
    schema: { type: 'string' as const },
  },
};

/**
 * The OpenAPI 3.1 document of /api/v1, made from the operations as they were registered (api/route.ts)
 * with their zod schemas (packages/contract/src/apiV1.ts), so what is documented is what is checked.
 * Built once, at the first request for it; zod-openapi is loaded then, not at the server's start.
 */
export async function buildOpenApi(opts: { title: string; version: string }) {
  const { createDocument } = await import('zod-openapi');
  const paths: ZodOpenApiPathsObject = {};
  for (const op of registry.values()) {
    const operation: ZodOpenApiOperationObject = {
      operationId: `${op.method.toLowerCase()}${op.path
        .replace(/^\/api\/v1/, '')
        .replace(/\{(\w+)\}/g, 'By_$1')
        .split(/[/_-]/)
        .filter(Boolean)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('')}`,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(op.scopes.length ? { 'x-scopes': [...op.scopes] } : {}),
      requestParams: {
        ...(op.params ? { path: op.params as z.ZodObject } : {}),
        ...(op.query ? { query: op.query as z.ZodObject } : {}),
        ...(op.headers ? { header: op.headers } : {}),
      },
      ...(op.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } }
        : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, r]) => [
          status,
          {
            description: r.description,
            headers: rateHeaders,
            ...(r.schema
              ? {
                  content: {
                    [Number(status) >= 400 ? 'application/problem+json' : 'application/json']: {
                      schema: r.schema,
                    },
                  },
                }
              : {}),
          },
        ]),
      ),
    };
    (paths[op.path] ??= {})[op.method.toLowerCase() as 'get' | 'post' | 'delete'] = operation;
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: opts.title,
      version: opts.version,
      description:
        'Numa for programs: send and read messages, rent numbers, receive verification codes, with the same rules, prices and ledger as the web page. ' +
        'Authenticate with `Authorization: Bearer <API key>` (Account → Developer). Failures are RFC 9457 problem details whose `code` is a Numa retcode. ' +
        `Events reach your webhook endpoints signed with the Standard Webhooks scheme: ${webhookEventTypes.join(', ')}. ` +
        'Verification codes are also served in the SMS-Activate protocol at /stubs/handler_api.php.',
    },
    servers: [{ url: '/', description: 'This server' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key: numa_sk_…' },
      },
    },
    tags: [
      { name: 'Messages' },
      { name: 'Numbers' },
      { name: 'Verification codes' },
      { name: 'Account' },
      { name: 'Webhooks' },
    ],
    paths,
  });
}
