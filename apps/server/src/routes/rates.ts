import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** Rates (spec 001 §2 Rates page, §7): one page of a tab's per-country rates, from the one rates table. */
export default async function rateRoutes(app: FastifyInstance) {
  const { pricing } = app.deps;
  route(
    app,
    endpoints.getCountryRates,
    async ({ input, ctx }) =>
      pricing.countryRates({
        brand: ctx.brand.id,
        rateType: input.rateType,
        rateCountryCode: input.rateCountryCode,
        lang: ctx.lang,
        pageNo: input.pageNo,
        pageSize: input.pageSize,
      }),
    // it works without a session too: anonymous readers are held per IP
    { rateLimit: { max: 120, timeWindow: 60_000 } },
  );
}
