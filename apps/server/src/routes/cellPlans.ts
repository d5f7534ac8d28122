import type { FastifyInstance } from 'fastify';
import * as endpoints from '@numa/contract/cellPlans';
import { route } from '../lib/route';

/** The embedded plans page's calls (issue 11 item 7; contract api/cellPlans.ts). */
export default async function cellPlanRoutes(app: FastifyInstance) {
  const { cellPlans } = app.deps;

  route(app, endpoints.getCellPlanList, async ({ session, ctx }) =>
    cellPlans.catalogue(session.accountId, ctx.brand.id),
  );
  route(app, endpoints.orderCellPlan, async ({ input, session, ctx }) =>
    cellPlans.order(session.accountId, ctx.brand.id, input),
  );
  // a page of up to 200 orders weighs like the other history pages
  route(
    app,
    endpoints.getCellOrderList,
    async ({ input, session }) => cellPlans.orders(session.accountId, input),
    {
      accountCost: 3,
    },
  );
  route(app, endpoints.getCellOrder, async ({ input, session }) =>
    cellPlans.orderOf(session.accountId, input.orderId),
  );
  route(app, endpoints.getCellSubscriptionList, async ({ session }) => cellPlans.lines(session.accountId));
  route(app, endpoints.updateCellLine, async ({ input, session }) =>
    cellPlans.rename(session.accountId, input.lineId, input.label),
  );
}
