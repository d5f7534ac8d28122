import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints, type EndpointDef } from '@numa/contract';
import { invalid, route } from '../lib/route';
import { ApiError } from '../lib/errors';
import { toAddress } from '../services/signin';
import type { RequestContext } from '../types';

/**
 * Verify a phone or an e-mail for the signed-in account (spec 000 §2 verify modal, §7).
 *
 * Sending a code always takes a solved captcha, as sign-in does: the client calls
 * POST /web/confirmCaptcha with `nextApi` set to '/web/getVerifyCode' or '/web/requestToVerifyEmail'
 * and that call's parameters, and gets its result. Called directly, the two answer with the captcha
 * code the client reacts to — decided: 100028 for getVerifyCode (spec 000 §8: "reload the cloud captcha
 * and trigger it for the verify-code call") and 100010 for requestToVerifyEmail (the captcha modal);
 * both after checking the input, so a mistyped number is reported before the captcha is shown, and
 * after the resend wait (100015 with resendAfter), so a countdown shows before the captcha too.
 * Whether an address is already used by another account is only told after the captcha.
 */
export default async function verifyRoutes(app: FastifyInstance) {
  const { verify, sessions, captchaNext, signin } = app.deps;

  /** Runs a captcha-protected send for confirmCaptcha: its own input check and its own session. */
  const continuation =
    <E extends EndpointDef>(
      ep: E,
      send: (
        input: ReturnType<E['input']['parse']>,
        accountId: number,
        ctx: RequestContext,
        req: FastifyRequest,
      ) => Promise<unknown>,
    ) =>
    async ({
      req,
      ctx,
      params,
    }: {
      req: FastifyRequest;
      ctx: RequestContext;
      params: Record<string, unknown>;
    }) => {
      const header = req.headers['auth-token'];
      const session = await sessions.authenticate(Array.isArray(header) ? header[0] : header, ctx.brand.id);
      const parsed = ep.input.safeParse(params);
      if (!parsed.success) throw invalid(parsed.error);
      const data = await send(parsed.data as ReturnType<E['input']['parse']>, session.accountId, ctx, req);
      const check = ep.output.safeParse(data);
      if (!check.success) throw new Error(`${ep.name} result breaks the contract`);
      return data;
    };

  const sendPhone = (
    input: { telcode: string; phone: string },
    accountId: number,
    ctx: RequestContext,
    req: FastifyRequest,
  ) =>
    verify.send({
      brand: ctx.brand,
      lang: ctx.lang,
      accountId,
      ip: req.ip,
      address: toAddress({ telCode: input.telcode, phone: input.phone }),
    });
  const sendEmail = (input: { email: string }, accountId: number, ctx: RequestContext, req: FastifyRequest) =>
    verify.send({ brand: ctx.brand, lang: ctx.lang, accountId, ip: req.ip, address: { email: input.email } });

  captchaNext.set(endpoints.getVerifyCode.path, continuation(endpoints.getVerifyCode, sendPhone));
  captchaNext.set(
    endpoints.requestToVerifyEmail.path,
    continuation(endpoints.requestToVerifyEmail, sendEmail),
  );

  const direct = { rateLimit: { max: 30, timeWindow: 60_000 } };
  // Called directly they never send: a wait still running is told first (100015 with resendAfter, so
  // the client counts down before any captcha), else the captcha is asked for.
  route(
    app,
    endpoints.getVerifyCode,
    async ({ input, ctx, req }) => {
      const address = toAddress({ telCode: input.telcode, phone: input.phone }); // 100007 for a number that cannot exist
      await signin.assertMaySend({ brand: ctx.brand, purpose: 'verify', address, ip: req.ip });
      throw new ApiError(100028);
    },
    direct,
  );
  route(
    app,
    endpoints.requestToVerifyEmail,
    async ({ input, ctx, req }) => {
      await signin.assertMaySend({
        brand: ctx.brand,
        purpose: 'verify',
        address: { email: input.email },
        ip: req.ip,
      });
      throw new ApiError(100010);
    },
    direct,
  );

  const tries = { rateLimit: { max: 30, timeWindow: 60_000 } };
  route(
    app,
    endpoints.validateCode,
    async ({ input, session, ctx }) => {
      await verify.validate({
        brand: ctx.brand,
        accountId: session.accountId,
        verifyid: input.verifyid,
        code: input.activationcode,
        channel: 'sms',
      });
      return {};
    },
    tries,
  );
  route(
    app,
    endpoints.validateCodeForEmail,
    async ({ input, session, ctx }) => {
      await verify.validate({
        brand: ctx.brand,
        accountId: session.accountId,
        verifyid: input.verifyid,
        code: input.activationcode,
        channel: 'email',
      });
      return {};
    },
    tries,
  );

  const phoneOf = (input: { telcode: string; phone: string }) =>
    toAddress({ telCode: input.telcode, phone: input.phone });
  route(app, endpoints.setPhoneForAccount, async ({ input, session, ctx }) =>
    verify.apply({
      brand: ctx.brand,
      accountId: session.accountId,
      verifyid: input.verifyid,
      address: phoneOf(input),
      mode: 'set',
    }),
  );
  route(app, endpoints.updatePhone, async ({ input, session, ctx }) =>
    verify.apply({
      brand: ctx.brand,
      accountId: session.accountId,
      verifyid: input.verifyid,
      address: phoneOf(input),
      mode: 'update',
    }),
  );
  route(app, endpoints.setEmailForAccount, async ({ input, session, ctx }) =>
    verify.apply({
      brand: ctx.brand,
      accountId: session.accountId,
      verifyid: input.verifyid,
      address: { email: input.email },
      mode: 'set',
    }),
  );
  route(app, endpoints.updateEmail, async ({ input, session, ctx }) =>
    verify.apply({
      brand: ctx.brand,
      accountId: session.accountId,
      verifyid: input.verifyid,
      address: { email: input.email },
      mode: 'update',
    }),
  );
}
