import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** Verification codes (spec 001 §2 verification pages, §4 Receive-code flow, §7). */
export default async function codeRoutes(app: FastifyInstance) {
  const { codes } = app.deps;

  route(app, endpoints.getVerificationCodePhoneListV2, async ({ input, session, ctx }) =>
    codes.phoneList({ accountId: session.accountId, app: input.app, country: input.code, lang: ctx.lang }),
  );
  route(
    app,
    endpoints.getVerificationCodePhoneListAnonymous,
    async ({ input, ctx }) =>
      codes.phoneList({ accountId: null, app: input.app, country: input.code, lang: ctx.lang }),
    { rateLimit: { max: 60, timeWindow: 60_000 } },
  );
  route(app, endpoints.getCodeNumberFeeByAppV2, async ({ input, ctx }) =>
    codes.fee({ brand: ctx.brand.id, app: input.app, country: input.code, lang: ctx.lang }),
  );
  route(
    app,
    endpoints.lockVerificationCodePhone,
    async ({ input, session, ctx }) =>
      codes.lock({
        accountId: session.accountId,
        brand: ctx.brand.id,
        lang: ctx.lang,
        app: input.app,
        country: input.code,
        number: input.number,
        lastApp: input.lastApp,
        lastNumber: input.lastNumber,
        numberType: input.numberType,
      }),
    { accountCost: 5 },
  );
  route(app, endpoints.getVerificationCodeSmsList, async ({ input, session, ctx }) =>
    codes.poll({
      accountId: session.accountId,
      app: input.app,
      number: input.number,
      count: input.count,
      lang: ctx.lang,
    }),
  );
  route(app, endpoints.getAppListByAccount, async ({ session, ctx }) =>
    codes.appsOfAccount(session.accountId, ctx.lang),
  );
  route(app, endpoints.getCodeNumberListByAccount, async ({ input, session, ctx }) =>
    codes.numbersOfAccount({
      accountId: session.accountId,
      brand: ctx.brand.id,
      app: input.app,
      lang: ctx.lang,
    }),
  );
  route(app, endpoints.getCodeSmsList, async ({ input, session, ctx }) =>
    codes.smsHistory({
      accountId: session.accountId,
      app: input.app,
      number: input.number,
      ym: input.ym,
      pageSize: input.pageSize,
      nextPage: input.nextPage,
      lang: ctx.lang,
    }),
  );
  route(app, endpoints.subVerificationCodePhone, async ({ input, session, ctx }) =>
    codes.subscribe({
      accountId: session.accountId,
      brand: ctx.brand.id,
      app: input.app,
      number: input.number,
      lang: ctx.lang,
    }),
  );
  route(app, endpoints.unSubVerificationCodePhone, async ({ input, session }) =>
    codes.unsubscribe({ accountId: session.accountId, app: input.app, number: input.number }),
  );
  route(app, endpoints.reSubVerificationCodePhone, async ({ input, session, ctx }) =>
    codes.resubscribe({
      accountId: session.accountId,
      brand: ctx.brand.id,
      historyId: input.historyId,
      lang: ctx.lang,
    }),
  );
  route(app, endpoints.getSubCodeNumberList, async ({ input, session, ctx }) =>
    codes.history({
      accountId: session.accountId,
      ym: input.ym,
      pageSize: input.pageSize,
      nextPage: input.nextPage,
      lang: ctx.lang,
    }),
  );
  route(
    app,
    endpoints.sendCodeSms,
    async ({ input, session, ctx }) =>
      codes.send({
        accountId: session.accountId,
        brand: ctx.brand.id,
        from: input.from,
        to: input.to,
        app: input.app,
        text: input.text,
      }),
    { accountCost: 5 },
  );
}
