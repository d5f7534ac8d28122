import type { FastifyInstance } from 'fastify';
import { developerEndpoints as e } from '@numa/contract/developer';
import { route } from '../lib/route';

/** The Developer panel's calls (issue 21): API keys and webhook endpoints of the signed-in account. */
export default async function developerRoutes(app: FastifyInstance) {
  const { apiKeys, webhooks } = app.deps;

  route(app, e.getApiKeys, async ({ session }) => ({ keys: await apiKeys.list(session.accountId) }));
  route(
    app,
    e.createApiKey,
    async ({ session, input }) =>
      apiKeys.create({
        accountId: session.accountId,
        brand: session.brand,
        name: input.name,
        scopes: input.scopes,
      }),
    { accountCost: 5 },
  );
  route(app, e.revokeApiKey, async ({ session, input }) => {
    await apiKeys.revoke(session.accountId, input.id);
    return {};
  });

  route(app, e.getWebhookEndpoints, async ({ session }) => ({
    endpoints: await webhooks.list(session.accountId),
  }));
  route(
    app,
    e.createWebhookEndpoint,
    async ({ session, input }) => ({ endpoint: await webhooks.create(session.accountId, input) }),
    { accountCost: 5 },
  );
  route(app, e.updateWebhookEndpoint, async ({ session, input }) => {
    const { id, ...rest } = input;
    return { endpoint: await webhooks.update(session.accountId, id, rest) };
  });
  route(app, e.deleteWebhookEndpoint, async ({ session, input }) => {
    await webhooks.remove(session.accountId, input.id);
    return {};
  });
  route(app, e.getWebhookDeliveries, async ({ session, input }) =>
    webhooks.deliveries(session.accountId, input.id, input.before),
  );
  route(
    app,
    e.sendTestWebhook,
    async ({ session, input }) => ({ delivery: await webhooks.sendTest(session.accountId, input.id) }),
    { accountCost: 5 },
  );
}
