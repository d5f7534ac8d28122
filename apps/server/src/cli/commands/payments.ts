import { fromMinor } from '@numa/contract';
import type { OrderRow } from '../../repositories/payments';
import { CliError, type CliContext, type Command } from '../context';

const orderArg = (s: string | undefined) => {
  const id = Number(s);
  if (!s || !Number.isSafeInteger(id) || id <= 0)
    throw new CliError('Which order? Give its id (payment list shows them).');
  return id;
};

const line = (o: OrderRow) =>
  [
    `#${o.id}`,
    o.status + (o.refundedAt ? ' (refunded)' : ''),
    `account ${o.accountId}`,
    o.brand,
    o.method,
    `${fromMinor(o.amount)}${o.bonus ? ` + ${fromMinor(o.bonus)} bonus` : ''} ${o.currency}`,
    o.createdAt.toISOString(),
    `${o.provider}:${o.providerRef}`,
  ].join('  ');

/** Top-up orders (issue 10): list, show, re-query a stuck one at its provider, refund a paid one (its own bill). */
export const paymentCommands: Command[] = [
  {
    name: 'payment list',
    usage:
      'payment list [--account <account>] [--status pending|paid|failed|cancelled|expired] [--brand numa]',
    summary: 'The newest 50 top-up orders, optionally of one account or one status.',
    options: { account: { type: 'string' }, status: { type: 'string' } },
    async run(ctx: CliContext, _args, flags) {
      let accountId: number | undefined;
      if (typeof flags.account === 'string') {
        const a = await ctx.operator.find(flags.account, ctx.brand);
        if (!a) throw new CliError(`No ${ctx.brand} account matches ${flags.account}.`);
        accountId = a.id;
      }
      const rows = await ctx.payments.list({
        ...(accountId ? { accountId } : {}),
        ...(typeof flags.status === 'string' ? { status: flags.status } : {}),
      });
      if (!rows.length) ctx.out('No orders.');
      for (const o of rows) ctx.out(line(o));
    },
  },
  {
    name: 'payment show',
    usage: 'payment show <order>',
    summary: 'One order and every provider notification about it.',
    async run(ctx, [id]) {
      const found = await ctx.payments.show(orderArg(id));
      if (!found) throw new CliError(`No order ${id}.`);
      ctx.out(line(found.order));
      for (const e of found.events) ctx.out(`  ${e.createdAt.toISOString()}  ${e.eventId}  ${e.result}`);
    },
  },
  {
    name: 'payment requery',
    usage: 'payment requery <order>',
    summary: 'Asks the provider how a stuck order stands and settles it as the provider says (credits once).',
    async run(ctx, [id]) {
      ctx.out(await ctx.payments.requery(orderArg(id)));
    },
  },
  {
    name: 'payment refund',
    usage: 'payment refund <order>',
    summary: 'Refunds a paid order at its provider and takes amount + bonus back with a refund bill, once.',
    async run(ctx, [id]) {
      ctx.out(await ctx.payments.refund(orderArg(id)));
    },
  },
  {
    name: 'ad set',
    usage: 'ad set --link <url> --image <url> [--link-cn <url>] [--image-cn <url>] [--brand wetalk]',
    summary:
      "Sets the brand's banner ad (getAdConfig), in English and Chinese (Chinese falls back to English).",
    options: {
      link: { type: 'string' },
      image: { type: 'string' },
      'link-cn': { type: 'string' },
      'image-cn': { type: 'string' },
    },
    async run(ctx, _args, flags) {
      const url = (name: string, v: unknown) => {
        if (typeof v !== 'string' || !/^https?:\/\/\S+$/.test(v))
          throw new CliError(`--${name} must be an http(s) URL`);
        return v;
      };
      const link = url('link', flags.link);
      const image = url('image', flags.image);
      await ctx.operator.setBannerAd(ctx.brand, {
        bannerAdsRedirectUrl: link,
        bannerAdsPictureUrl: image,
        bannerAdsRedirectUrlCn: flags['link-cn'] === undefined ? link : url('link-cn', flags['link-cn']),
        bannerAdsPictureUrlCn: flags['image-cn'] === undefined ? image : url('image-cn', flags['image-cn']),
      });
      ctx.out(`Banner ad of ${ctx.brand} set.`);
    },
  },
  {
    name: 'ad clear',
    usage: 'ad clear [--brand wetalk]',
    summary: "Removes the brand's banner ad (getAdConfig then answers empty strings).",
    async run(ctx) {
      await ctx.operator.setBannerAd(ctx.brand, null);
      ctx.out(`Banner ad of ${ctx.brand} removed.`);
    },
  },
];
