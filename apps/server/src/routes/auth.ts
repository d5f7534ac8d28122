import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';
import { ApiError } from '../lib/errors';
import { accountsRepo, AccountStatus } from '../repositories/accounts';
import { toAddress } from '../services/codes';
import { clearMediaCookie, mediaCookie } from '../lib/cookies';
const meta = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'], ip: req.ip });

export default async function authRoutes(app: FastifyInstance) {
  const { codes, sessions, captcha, db, captchaNext } = app.deps;

  /** Spends a captcha; a wrong answer gets 100020 with a fresh drawing in `data`. */
  const requireCaptcha = async (captchaId: string | undefined, answer: string | undefined) => {
    if (!captchaId || !answer) throw new ApiError(100010);
    if (!(await captcha.check(captchaId, answer))) throw new ApiError(100020, await captcha.draw(captchaId));
  };

  route(
    app,
    endpoints.preLogin,
    async ({ input, ctx, req }) => {
      const address = toAddress(input);
      await requireCaptcha(input.captchaId, input.inputCaptcha);
      return codes.send({ brand: ctx.brand, lang: ctx.lang, purpose: 'login', address, ip: req.ip });
    },
    { rateLimit: { max: 10, timeWindow: 60_000 } },
  );

  route(
    app,
    endpoints.login,
    async ({ input, ctx, req, reply }) => {
      const address = toAddress(input);
      const { account, started } = await codes.check(
        { brand: ctx.brand, purpose: 'login', address, code: input.code },
        async (q) => {
          const account = await accountsRepo.findOrCreate(q, ctx.brand.id, address);
          if (account.status === AccountStatus.suspended) throw new ApiError(100008);
          if (account.status === AccountStatus.deleted) throw new ApiError(200018);
          return { account, started: await sessions.start(q, account.id, meta(req)) };
        },
      );
      sessions.announceRevoked(account.id, started.revoked, 'elsewhere');
      reply.header('set-cookie', mediaCookie(started.token, req.protocol === 'https'));
      return { token: started.token, canInvite: account.canInvite, canSetInviter: account.canSetInviter };
    },
    { rateLimit: { max: 30, timeWindow: 600_000 } },
  );

  route(app, endpoints.refreshToken, async ({ session, req, reply }) => {
    const token = await sessions.refresh(session, meta(req));
    reply.header('set-cookie', mediaCookie(token, req.protocol === 'https'));
    return { token };
  });

  route(app, endpoints.logout, async ({ session, reply }) => {
    await sessions.logout(session);
    reply.header('set-cookie', clearMediaCookie());
    return {};
  });

  route(app, endpoints.captcha, async ({ input }) => captcha.current(input.captchaId), {
    rateLimit: { max: 30, timeWindow: 60_000 },
  });
  route(app, endpoints.genCaptcha, async ({ input }) => captcha.draw(input.captchaId), {
    rateLimit: { max: 30, timeWindow: 60_000 },
  });

  route(
    app,
    endpoints.confirmCaptcha,
    async ({ input, ctx, req }) => {
      const { captchaId, inputCaptcha, nextApi, ...params } = input;
      if (!nextApi && Object.keys(params).length) {
        throw new ApiError(100001, { issues: Object.keys(params).map((k) => ({ path: k, message: 'Unknown field' })) }, Object.keys(params).join(', '));
      }
      await requireCaptcha(captchaId, inputCaptcha);
      if (!nextApi) return {};
      const next = captchaNext.get(nextApi);
      if (!next) throw new ApiError(100002, null, nextApi);
      return (await next({ req, ctx, params })) as Record<string, unknown>;
    },
    { rateLimit: { max: 20, timeWindow: 60_000 } },
  );

  route(app, endpoints.getAccountInfo, async ({ session }) => {
    const a = await accountsRepo.byId(db, session.accountId);
    if (!a) throw new ApiError(100012);
    return {
      telCode: a.telCode ?? '',
      phone: a.phone ?? '',
      email: a.email ?? '',
      status: a.status,
      canInvite: a.canInvite,
      canSetInviter: a.canSetInviter,
    };
  });

  route(app, endpoints.queryBalance, async ({ session }) => {
    const a = await accountsRepo.byId(db, session.accountId);
    if (!a) throw new ApiError(100012);
    return { balance: a.balance / 10000 };
  });
}
