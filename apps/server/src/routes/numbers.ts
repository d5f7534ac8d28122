import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** Number rental (spec 001 §2 Numbers area, §4 New number flow, §7). */
export default async function numberRoutes(app: FastifyInstance) {
  const { subscriptions, calls } = app.deps;

  route(app, endpoints.getAreaCodeV2, async ({ ctx }) => subscriptions.areas(ctx.lang));
  route(app, endpoints.getVirtualPhoneByAreaCode, async ({ input }) => subscriptions.freeNumbers(input));
  route(app, endpoints.getPlanList, async ({ input, ctx }) =>
    subscriptions.planList({ brand: ctx.brand.id, lang: ctx.lang, code: input.code, type: input.type }),
  );
  route(app, endpoints.subVirtualPhone, async ({ input, session, ctx }) =>
    subscriptions.subscribe(session.accountId, session.brand, ctx.lang, input),
  );
  route(app, endpoints.reSubVirtualPhone, async ({ input, session, ctx }) =>
    subscriptions.resubscribe(session.accountId, session.brand, ctx.lang, input),
  );
  route(app, endpoints.unSubVirtualPhone, async ({ input, session }) => {
    await subscriptions.unsubscribe(session.accountId, input);
    return {};
  });
  route(app, endpoints.getManagePlanList, async ({ input, session, ctx }) =>
    subscriptions.managePlans(session.accountId, session.brand, ctx.lang, input.virtualNumber),
  );
  route(app, endpoints.preChangePlan, async ({ input, session, ctx }) =>
    subscriptions.changeOptions(
      session.accountId,
      session.brand,
      ctx.lang,
      input.virtualNumber,
      input.planId,
    ),
  );
  route(app, endpoints.changePlan, async ({ input, session, ctx }) =>
    subscriptions.changePlan(session.accountId, session.brand, ctx.lang, input),
  );
  route(app, endpoints.setForward, async ({ input, session }) =>
    calls.setForward(session.accountId, input.forward),
  );
  route(app, endpoints.setVoicemail, async ({ input, session }) =>
    calls.setVoicemail(session.accountId, input.voicemail),
  );
  route(app, endpoints.getCallList, async ({ input, session }) => calls.page(session.accountId, input));
  route(app, endpoints.getSubscriptionList, async ({ input, session }) =>
    subscriptions.historyPage(session.accountId, input),
  );
}
