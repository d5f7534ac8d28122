import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** Scheduled messages (issue 22 §2): schedule, a conversation's list, edit, cancel. */
export default async function scheduledRoutes(app: FastifyInstance) {
  const { scheduled } = app.deps;
  route(app, endpoints.scheduleMessage, async ({ session, input, ctx }) =>
    scheduled.schedule(
      { accountId: session.accountId, brand: session.brand },
      { fromNumber: input.fromNumber, toNumber: input.toNumber, text: input.text, sendAt: input.sendAt },
      ctx.lang,
    ),
  );
  route(app, endpoints.getScheduledMessages, async ({ session, input, ctx }) =>
    scheduled.list(session.accountId, input.fromNumber, input.toNumber, ctx.lang),
  );
  route(app, endpoints.editScheduledMessage, async ({ session, input, ctx }) =>
    scheduled.edit(
      session.accountId,
      { id: input.id, version: input.version, text: input.text, sendAt: input.sendAt },
      ctx.lang,
    ),
  );
  route(app, endpoints.cancelScheduledMessage, async ({ session, input, ctx }) =>
    scheduled.cancel(session.accountId, input.id, ctx.lang),
  );
}
