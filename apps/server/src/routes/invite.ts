import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** Invite friend and redeem code (spec 001 §2, §3, §9). */
export default async function inviteRoutes(app: FastifyInstance) {
  const { invite: invites } = app.deps;

  route(app, endpoints.queryInviteInfo, async ({ session, ctx }) =>
    invites.info(session.accountId, ctx.brand, ctx.lang),
  );
  route(app, endpoints.getInviteCode, async ({ session, ctx }) => ({
    inviteCode: await invites.codeFor(session.accountId, ctx.brand),
  }));
  route(app, endpoints.getInviter, async ({ input, session }) =>
    invites.inviter(session.accountId, input.phone),
  );
  route(
    app,
    endpoints.setInviter,
    async ({ input, session, ctx }) => invites.redeem(session.accountId, ctx.brand, input.inviteCode),
    {
      // codes are 8 of 32 characters; this keeps guessing hopeless
      rateLimit: { max: 20, timeWindow: 600_000 },
    },
  );
}
