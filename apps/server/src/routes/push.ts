import type { FastifyInstance } from 'fastify';
import { pushEndpoints as e } from '@numa/contract/push';
import { route } from '../lib/route';

/** The Account area's notification setting and device list (issue 23). */
export default async function pushRoutes(app: FastifyInstance) {
  const { push } = app.deps;

  route(app, e.getPushSettings, async ({ session, input }) =>
    push.settings(session.accountId, input.endpoint),
  );
  route(
    app,
    e.subscribePush,
    async ({ session, input, req, ctx }) => ({
      device: await push.subscribe(session.accountId, input, {
        userAgent: req.headers['user-agent'],
        lang: ctx.lang,
      }),
    }),
    { accountCost: 5 },
  );
  route(app, e.updatePushDevice, async ({ session, input }) => ({
    device: await push.setPreviews(session.accountId, input.id, input.previews),
  }));
  route(app, e.unsubscribePush, async ({ session, input }) => {
    await push.unsubscribe(session.accountId, input.id);
    return {};
  });
}
