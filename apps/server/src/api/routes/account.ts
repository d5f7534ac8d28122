import type { FastifyInstance } from 'fastify';
import { brands } from '@numa/contract';
import {
  ApiWebhookEndpoint,
  Balance,
  KeyInfo,
  Problem,
  WebhookEndpointBody,
  WebhookEndpointList,
} from '@numa/contract/apiV1';
import { z } from 'zod';
import type { WebhookEndpoint } from '@numa/contract/developer';
import { apiRoute } from '../route';

const problems = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, { description: 'Problem details (RFC 9457)', schema: Problem }]));

const endpointView = (e: WebhookEndpoint) => ({ ...e, createdAt: new Date(e.createdAt).toISOString() });
const IdParam = z.strictObject({ id: z.string().regex(/^\d{1,15}$/) });

/** /api/v1: the key itself, the balance, webhook endpoints (issue 21). */
export default async function accountRoutes(app: FastifyInstance) {
  const { accounts, webhooks } = app.deps;

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/key',
      tag: 'Account',
      summary: 'The key you call with: its name, scopes and brand',
      scopes: [],
      responses: { 200: { description: 'The key', schema: KeyInfo }, ...problems(401, 429) },
    },
    async ({ principal }) => {
      const keys = await app.deps.apiKeys.list(principal.accountId);
      const k = keys.find((x) => x.id === String(principal.keyId));
      return {
        status: 200,
        body: {
          id: String(principal.keyId),
          name: k?.name ?? '',
          prefix: k?.prefix ?? '',
          scopes: [...principal.scopes],
          brand: principal.brand,
        },
      };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/balance',
      tag: 'Account',
      summary: 'Your balance',
      scopes: [],
      responses: { 200: { description: 'The balance', schema: Balance }, ...problems(401, 429) },
    },
    async ({ principal }) => {
      const c = brands[principal.brand].currency;
      return {
        status: 200,
        body: {
          balance: await accounts.balance(principal.accountId),
          unit: c.label.en,
          decimals: c.decimals,
        },
      };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/webhooks',
      tag: 'Webhooks',
      summary: 'Your webhook endpoints',
      scopes: ['webhooks'],
      responses: {
        200: { description: 'Endpoints', schema: WebhookEndpointList },
        ...problems(401, 403, 429),
      },
    },
    async ({ principal }) => ({
      status: 200,
      body: { data: (await webhooks.list(principal.accountId)).map(endpointView) },
    }),
  );

  apiRoute(
    app,
    {
      method: 'POST',
      path: '/api/v1/webhooks',
      tag: 'Webhooks',
      summary: 'Add a webhook endpoint with the events it wants',
      description:
        'Events are signed with the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature) with the endpoint’s secret. Production takes https URLs on public addresses only.',
      scopes: ['webhooks'],
      body: WebhookEndpointBody,
      responses: {
        201: { description: 'Added', schema: ApiWebhookEndpoint },
        ...problems(400, 401, 403, 429),
      },
    },
    async ({ principal, body }) => ({
      status: 201,
      body: endpointView(await webhooks.create(principal.accountId, body)),
    }),
  );

  apiRoute(
    app,
    {
      method: 'DELETE',
      path: '/api/v1/webhooks/{id}',
      tag: 'Webhooks',
      summary: 'Remove a webhook endpoint',
      scopes: ['webhooks'],
      params: IdParam,
      responses: { 204: { description: 'Removed', schema: null }, ...problems(401, 403, 404, 429) },
    },
    async ({ principal, params }) => {
      await webhooks.remove(principal.accountId, params.id);
      return { status: 204, body: null };
    },
  );

  apiRoute(
    app,
    {
      method: 'POST',
      path: '/api/v1/webhooks/{id}/test',
      tag: 'Webhooks',
      summary: 'Send a webhook.test event to an endpoint now',
      scopes: ['webhooks'],
      params: IdParam,
      responses: {
        202: { description: 'Queued (see the delivery log)', schema: null },
        ...problems(401, 403, 404, 429),
      },
    },
    async ({ principal, params }) => {
      await webhooks.sendTest(principal.accountId, params.id);
      return { status: 202, body: null };
    },
  );
}
