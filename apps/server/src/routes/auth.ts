import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';
import { ApiError } from '../lib/errors';
import { toAddress } from '../services/signin';
import { captchaFailureCookie, clearMediaCookie, mediaCookie } from '../lib/cookies';
const meta = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'], ip: req.ip });

export default async function authRoutes(app: FastifyInstance) {
  const { signin, sessions, captcha, accounts, captchaNext, pow } = app.deps;

  /**
   * Spends a captcha; a wrong answer gets 100020 with a fresh drawing in `data`. A call that sends a
   * code (`pow: 'required'`) also needs the drawing's proof of work solved, checked and spent before
   * the answer (100029; contract auth.ts).
   */
  const requireCaptcha = async (
    captchaId: string | undefined,
    answer: string | undefined,
    proof: { pow: 'required'; payload: string | undefined } | null,
    http: { req: FastifyRequest; reply: FastifyReply },
  ) => {
    if (!captchaId || !answer) throw new ApiError(100010);
    if (proof) await pow.verify(captchaId, proof.payload);
    if (!(await captcha.check(captchaId, answer))) {
      http.reply.header('set-cookie', captchaFailureCookie(http.req.headers.cookie, Date.now()));
      throw new ApiError(100020, await captcha.draw(captchaId));
    }
    http.reply.header('set-cookie', captchaFailureCookie(undefined, null));
  };

  route(
    app,
    endpoints.preLogin,
    async ({ input, ctx, req, reply }) => {
      const address = toAddress(input);
      const who = { brand: ctx.brand, purpose: 'login' as const, address, ip: req.ip };
      await signin.assertMaySend(who);
      await requireCaptcha(
        input.captchaId,
        input.inputCaptcha,
        { pow: 'required', payload: input.pow },
        { req, reply },
      );
      return signin.send({ ...who, lang: ctx.lang });
    },
    { rateLimit: { max: 10, timeWindow: 60_000 } },
  );

  route(
    app,
    endpoints.login,
    async ({ input, ctx, req, reply }) => {
      const address = toAddress(input);
      const { account, token } = await signin.login({
        brand: ctx.brand,
        address,
        code: input.code,
        meta: meta(req),
      });
      reply.header('set-cookie', mediaCookie(token, req.protocol === 'https'));
      return { token, canInvite: account.canInvite, canSetInviter: account.canSetInviter };
    },
    { rateLimit: { max: 30, timeWindow: 600_000 } },
  );

  route(app, endpoints.refreshToken, async ({ session, req, reply }) => {
    const presented = req.headers['auth-token'];
    const token = await sessions.refresh(
      session,
      (Array.isArray(presented) ? presented[0] : presented) ?? '',
      meta(req),
    );
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
    async ({ input, ctx, req, reply }) => {
      const { captchaId, inputCaptcha, nextApi, pow: proof, ...params } = input;
      if (!nextApi && Object.keys(params).length) {
        throw new ApiError(
          100001,
          { issues: Object.keys(params).map((k) => ({ path: k, message: 'Unknown field' })) },
          Object.keys(params).join(', '),
        );
      }
      // with nextApi the call sends a code: its proof of work is required
      await requireCaptcha(captchaId, inputCaptcha, nextApi ? { pow: 'required', payload: proof } : null, {
        req,
        reply,
      });
      if (!nextApi) return {};
      const next = captchaNext.get(nextApi);
      if (!next) throw new ApiError(100002, null, nextApi);
      return (await next({ req, ctx, params })) as Record<string, unknown>;
    },
    { rateLimit: { max: 20, timeWindow: 60_000 } },
  );

  route(app, endpoints.getAccountInfo, async ({ session }) => accounts.info(session.accountId));

  route(app, endpoints.queryBalance, async ({ session }) => ({
    balance: await accounts.balance(session.accountId),
  }));
}
