import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cryptoMethodOf, endpoints, YearMonth, type BrandId, type PaymentMethodKey } from '@numa/contract';
import { ApiError } from '../lib/errors';
import { invalid, route } from '../lib/route';
import { paypalCancelPath, paypalReturnPath } from '../providers/payments/paypal';
import { SandboxPayments, type SandboxAction } from '../providers/payments/sandbox';
import { stripeCancelPath } from '../providers/payments/stripe';

/** Where the sandbox's Cancel sends the payer (a provider's cancel URL). */
const sandboxCancelPath = '/pay/cancel/sandbox';

const sandboxActions: readonly SandboxAction[] = [
  'pay',
  'fail',
  'cancel',
  'resend',
  'sendExact',
  'sendWrong',
];

/**
 * Top-up (issue 10): the pay calls of spec 001 §7, the order's status and cleanup, the histories, the
 * providers' webhooks at /pay/notify/<provider> (raw body: the signature covers its bytes), and the
 * sandbox provider's own page at /pay/sandbox/<ref>.
 */
export default async function paymentRoutes(app: FastifyInstance) {
  const { payments, env } = app.deps;
  const baseUrl = (req: FastifyRequest) =>
    env.PAYMENT_PUBLIC_URL?.replace(/\/$/, '') ?? `${req.protocol}://${req.headers.host ?? req.hostname}`;
  const submitLimit = { rateLimit: { max: 60, timeWindow: 60_000 } };
  // the provider sends the payer back to return_url: only to our own pages (no open redirect)
  const publicHost = env.PAYMENT_PUBLIC_URL ? new URL(env.PAYMENT_PUBLIC_URL).host : null;
  const ownReturnUrl = (req: FastifyRequest, url: string | undefined) => {
    if (url === undefined) return undefined;
    const host = new URL(url).host;
    if (host !== req.headers.host && host !== publicHost) throw new ApiError(100001, null, 'return_url');
    return url;
  };

  route(app, endpoints.getPaymentMethods, async ({ session, ctx }) =>
    payments.methods(session.accountId, ctx.brand.id),
  );

  // the card, Alipay and crypto-checkout submits differ only in where the method comes from
  const submit =
    (methodOf: (input: { payment_method?: PaymentMethodKey }) => PaymentMethodKey) =>
    async ({
      req,
      input,
      session,
      ctx,
    }: {
      req: FastifyRequest;
      input: {
        productid: string;
        custom_amount?: number;
        return_url?: string;
        payment_method?: PaymentMethodKey;
      };
      session: { accountId: number };
      ctx: { brand: { id: BrandId } };
    }) => {
      const r = await payments.submit(session.accountId, ctx.brand.id, baseUrl(req), {
        method: methodOf(input),
        productId: input.productid,
        customAmount: input.custom_amount,
        returnUrl: ownReturnUrl(req, input.return_url),
      });
      return { orderId: String(r.order.id), paymentUrl: r.checkout.paymentUrl };
    };
  route(
    app,
    endpoints.paySubmit,
    submit((i) => i.payment_method!),
    submitLimit,
  );
  route(
    app,
    endpoints.alipayPaySubmit,
    submit(() => 'alipay'),
    submitLimit,
  );
  route(
    app,
    endpoints.cryptoCurrencyPaySubmit,
    submit(() => 'cryptoPay'),
    submitLimit,
  );

  route(
    app,
    endpoints.paypalPaySubmit,
    async ({ req, input, session, ctx }) => {
      const base = baseUrl(req);
      const r = await payments.submit(session.accountId, ctx.brand.id, base, {
        method: 'paypal',
        productId: input.productid,
      });
      return {
        orderId: String(r.order.id),
        transactionId: r.checkout.ref,
        paymentUrl: r.checkout.paymentUrl,
      };
    },
    submitLimit,
  );

  route(
    app,
    endpoints.etherPayPaySubmit,
    async ({ req, input, session, ctx }) => {
      const r = await payments.submit(session.accountId, ctx.brand.id, baseUrl(req), {
        method: cryptoMethodOf[input.currency],
        productId: input.productid,
        customAmount: input.custom_amount,
        crypto: { currency: input.currency, network: input.network ?? null },
      });
      const c = r.crypto!;
      return {
        orderId: String(r.order.id),
        currency: input.currency,
        network: input.network ?? null,
        rechargeAmount: c.amount,
        walletAddress: c.address,
        cryptoToLegalRate: c.rate,
        queryRateTime: c.rateTime,
        ...(r.checkout.paymentUrl ? { paymentUrl: r.checkout.paymentUrl } : {}),
      };
    },
    submitLimit,
  );

  route(app, endpoints.cancelPayment, async ({ input, session }) =>
    payments.cancel(session.accountId, input.orderId),
  );
  route(app, endpoints.queryPaymentStatus, async ({ input, session }) =>
    payments.status(session.accountId, input.orderId),
  );

  route(app, endpoints.getPaymentList, async ({ input, session }) =>
    payments.paymentList(session.accountId, input.date, input.pageNo, input.pageSize),
  );
  route(app, endpoints.getBillList, async ({ input, session }) =>
    payments.billList(session.accountId, input.ym, input.nextPage, input.pageSize),
  );
  route(app, endpoints.getNormalSmsList, async ({ input, session }) =>
    payments.smsList(session.accountId, input.date, input.pageNo, input.pageSize),
  );

  // a month of bills as CSV (beyond the spec: users expense them); the session as for any /web call
  app.get('/web/downloadBills', async (req, reply) => {
    const token = req.headers['auth-token'];
    const session = await app.deps.sessions.authenticate(
      Array.isArray(token) ? token[0] : token,
      req.ctx.brand.id,
    );
    const parsed = YearMonth.safeParse((req.query as { ym?: unknown } | undefined)?.ym);
    if (!parsed.success) throw invalid(parsed.error);
    const csv = await payments.billCsv(session.accountId, parsed.data, req.ctx.lang);
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="bills-${parsed.data}.csv"`)
      .send(csv);
  });

  // --- the providers' side ---
  await app.register(async (hooks) => {
    // the signature covers the exact bytes: keep the body as text
    hooks.addContentTypeParser(
      ['application/json', 'application/x-www-form-urlencoded', 'text/plain'],
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (_req, body, done) => done(null, body),
    );

    // the sandbox runs only in development and demos (issue 18): elsewhere its webhook does not exist,
    // like its pages (404); any other name that is no provider here is refused (403)
    const sandbox = payments.provider instanceof SandboxPayments ? payments.provider : null;
    hooks.post('/pay/notify/:provider', async (req) => {
      const { provider } = req.params as { provider: string };
      if (provider === 'sandbox' && !sandbox) throw new ApiError(100002);
      const result = await payments.notify(
        provider,
        { rawBody: typeof req.body === 'string' ? req.body : '', headers: req.headers, url: req.url },
        req.ctx.brand.id,
      );
      return { received: true, result };
    });

    // PayPal sends the payer back here with its order id as `token`: the order is captured on our side
    // (PayPal's answer decides; the payer's browser only says "look now"), then the payer goes on to
    // where the payment started. Cancelled at PayPal: nothing to capture; the dialog's close cancels.
    const backTo = (req: FastifyRequest, url: string | null) => url ?? `${baseUrl(req)}/account/credit`;
    const tokenOf = (req: FastifyRequest) => {
      const { token } = (req.query ?? {}) as { token?: unknown };
      return typeof token === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(token) ? token : null;
    };
    const returnLimit = {
      config: { rateLimit: { max: Math.ceil(60 * env.IP_RATE_LIMIT_FACTOR), timeWindow: 60_000 } },
    };
    hooks.get(paypalReturnPath, returnLimit, async (req, reply) => {
      const token = tokenOf(req);
      if (!token) throw new ApiError(100001, null, 'token');
      const r = await payments.returned('paypal', token);
      if (!r) throw new ApiError(200046);
      return reply.redirect(backTo(req, r.returnUrl), 303);
    });
    // cancelled at the provider: the order is closed as cancelled, so the payment dialog says so
    // (issue 20), then the payer goes back to where the payment started
    hooks.get(paypalCancelPath, returnLimit, async (req, reply) => {
      const token = tokenOf(req);
      const order = token ? await payments.cancelledByPayer('paypal', { ref: token }) : null;
      return reply.redirect(backTo(req, order?.returnUrl ?? null), 303);
    });

    // Stripe Checkout's Cancel: its cancel URL names our order and carries its signature (Stripe puts
    // no session id in it). A malformed or unsigned link is refused (100001), a forged one too (100003);
    // neither changes anything. No Stripe here: no such page (100002).
    hooks.get(stripeCancelPath, returnLimit, async (req, reply) => {
      const { order, sig } = (req.query ?? {}) as { order?: unknown; sig?: unknown };
      if (typeof order !== 'string' || !/^[1-9]\d{0,14}$/.test(order))
        throw new ApiError(100001, null, 'order');
      if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) throw new ApiError(100001, null, 'sig');
      if (!payments.hasProvider('stripe')) throw new ApiError(100002);
      if (!payments.cancelSigned('stripe', Number(order), sig)) throw new ApiError(100003, null, 'sig');
      const r = await payments.cancelledByPayer('stripe', { orderId: Number(order) });
      return reply.redirect(backTo(req, r?.returnUrl ?? null), 303);
    });

    if (!sandbox) return;
    const page = async (ref: string, message: string | null) => {
      const html = await sandbox.page(ref, message);
      if (html === null) throw new ApiError(200046);
      return html;
    };
    hooks.get(sandboxCancelPath, returnLimit, async (req, reply) => {
      const { ref } = (req.query ?? {}) as { ref?: unknown };
      if (typeof ref !== 'string' || !/^sbx_[0-9a-f]{24}$/.test(ref)) throw new ApiError(100001, null, 'ref');
      const order = await payments.cancelledByPayer('sandbox', { ref });
      return reply.redirect(backTo(req, order?.returnUrl ?? null), 303);
    });
    hooks.get('/pay/sandbox/:ref', async (req, reply) => {
      const { ref } = req.params as { ref: string };
      const { m } = (req.query ?? {}) as { m?: string };
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await page(ref, typeof m === 'string' ? m.slice(0, 300) : null));
    });
    // a hosted form (the PayPal dialog's) lands here with its fields
    hooks.post('/pay/sandbox/:ref', async (req, reply) => {
      const { ref } = req.params as { ref: string };
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await page(ref, null));
    });
    hooks.post('/pay/sandbox/:ref/:action', async (req, reply) => {
      const { ref, action } = req.params as { ref: string; action: string };
      if (!(sandboxActions as readonly string[]).includes(action)) throw new ApiError(100001, null, 'action');
      const message = await sandbox.act(ref, action as SandboxAction);
      if (message === null) throw new ApiError(200046);
      // Cancel sends the payer to our cancel URL, as a provider's cancel does
      if (action === 'cancel')
        return reply.redirect(`${sandboxCancelPath}?ref=${encodeURIComponent(ref)}`, 303);
      return reply.redirect(`/pay/sandbox/${encodeURIComponent(ref)}?m=${encodeURIComponent(message)}`, 303);
    });
  });
}
