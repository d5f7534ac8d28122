import { fromMinor, toMinor, type Minor } from '@numa/contract';
import type { OrderRow } from '../../repositories/payments';
import type { ReturnRow } from '../../repositories/paymentReturns';
import type { ReconcileItem } from '../../services/payments/reconcile';
import { DAY_MS } from '../../lib/dates';
import { CliError, type CliContext, type Command } from '../context';

const orderArg = (s: string | undefined) => {
  const id = Number(s);
  if (!s || !Number.isSafeInteger(id) || id <= 0)
    throw new CliError('Which order? Give its id (payment list shows them).');
  return id;
};

const units = (m: Minor | number) => fromMinor(m as Minor);

/** How an order stands after its refunds and disputes: "refunded 5 of 10", "dispute lost" … */
function returnState(o: OrderRow, returns: ReturnRow[]): string {
  const parts: string[] = [];
  const refunded = returns
    .filter((r) => r.kind === 'refund' && r.debitBill !== null && r.reversalBill === null)
    .reduce((sum, r) => sum + r.amount, 0);
  if (refunded)
    parts.push(refunded >= o.amount ? 'refunded' : `refunded ${units(refunded)} of ${units(o.amount)}`);
  else if (o.refundedAt) parts.push('refunded');
  const dispute = returns.filter((r) => r.kind === 'dispute').at(-1);
  if (dispute) parts.push(dispute.status === 'opened' ? 'disputed' : `dispute ${dispute.status}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

const line = (o: OrderRow, returns: ReturnRow[] = []) =>
  [
    `#${o.id}`,
    o.status + returnState(o, returns),
    `account ${o.accountId}`,
    o.brand,
    o.method,
    `${units(o.amount)}${o.bonus ? ` + ${units(o.bonus)} bonus` : ''} ${o.currency}`,
    o.createdAt.toISOString(),
    `${o.provider}:${o.providerRef}${o.paymentRef ? ` (payment ${o.paymentRef})` : ''}`,
  ].join('  ');

const returnLine = (r: ReturnRow) =>
  [
    `  ${r.kind} ${r.returnId}`,
    r.status,
    `${units(r.amount)} ${r.currency}`,
    r.origin === 'operator' ? 'by the operator' : 'by the provider',
    r.excess
      ? 'not debited: more than is left to refund'
      : r.debitBill === null
        ? 'no money moved'
        : `debited (bill ${r.debitBill}, bonus ${units(r.bonusTaken)})` +
          (r.reversalBill === null
            ? ''
            : `, credited back (bill ${r.reversalBill}, bonus ${units(r.bonusReturned)})`),
  ].join('  ');

const classNames: Record<ReconcileItem['class'], string> = {
  matched: 'matched',
  missingOurs: 'missing on our side',
  missingTheirs: 'missing on theirs',
  amountDiffers: 'amount differs',
};

/** A YYYY-MM-DD flag as the UTC midnight it starts. */
function dayFlag(name: string, v: unknown): Date {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v))
    throw new CliError(`--${name} must be a date, YYYY-MM-DD (UTC)`);
  const d = new Date(`${v}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v)
    throw new CliError(`--${name} ${v} is not a date`);
  return d;
}

/** Top-up orders (issues 10, 18): list, show, re-query a stuck one, refund a paid one, reconcile with the providers. */
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
      for (const r of rows) ctx.out(line(r.order, r.returns));
    },
  },
  {
    name: 'payment show',
    usage: 'payment show <order>',
    summary: 'One order, its refunds and disputes, and every provider notification about it.',
    async run(ctx, [id]) {
      const found = await ctx.payments.show(orderArg(id));
      if (!found) throw new CliError(`No order ${id}.`);
      ctx.out(line(found.order, found.returns));
      for (const r of found.returns) ctx.out(returnLine(r));
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
    usage: 'payment refund <order> [--amount <amount>]',
    summary:
      'Refunds a paid order at its provider (all that is left, or --amount of it) and takes it back with its share of the bonus, once.',
    options: { amount: { type: 'string' } },
    async run(ctx, [id], flags) {
      let amount: Minor | undefined;
      if (flags.amount !== undefined) {
        const n = Number(flags.amount);
        if (typeof flags.amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(flags.amount) || !(n > 0))
          throw new CliError('--amount must be a positive amount with at most 2 decimals');
        amount = toMinor(n);
      }
      ctx.out(await ctx.payments.refund(orderArg(id), amount));
    },
  },
  {
    name: 'payment reconcile',
    usage: 'payment reconcile --from <YYYY-MM-DD> --to <YYYY-MM-DD> [--provider stripe]',
    summary:
      'Every provider payment, refund and dispute of the days (UTC, both included) against our orders and bills: matched, missing on our side, missing on theirs, amount differs.',
    options: { from: { type: 'string' }, to: { type: 'string' }, provider: { type: 'string' } },
    async run(ctx, _args, flags) {
      const from = dayFlag('from', flags.from);
      const to = new Date(dayFlag('to', flags.to).getTime() + DAY_MS);
      if (to <= from) throw new CliError('--to is before --from');
      if (to.getTime() - from.getTime() > 366 * DAY_MS) throw new CliError('at most a year at a time');
      const provider = typeof flags.provider === 'string' ? flags.provider : undefined;
      const reports = await ctx.payments.reconcile(from, to, provider);
      if (!reports.length) throw new CliError(`No payment provider ${provider} is configured.`);
      for (const r of reports) {
        ctx.out(
          `${r.provider} (${r.source === 'api' ? "the provider's API" : 'the notifications we stored'}), ${from.toISOString().slice(0, 10)} to ${new Date(to.getTime() - 1).toISOString().slice(0, 10)}`,
        );
        for (const i of r.items)
          ctx.out(
            [
              `  ${classNames[i.class].padEnd(19)}`,
              i.kind.padEnd(7),
              i.id,
              i.orderId === null ? 'no order' : `order #${i.orderId}`,
              `theirs ${i.theirs ? `${units(i.theirs.amount)} ${i.theirs.currency} ${i.theirs.status}` : '-'}`,
              `ours ${i.ours ? `${units(i.ours.amount)} ${i.ours.status}` : '-'}`,
              ...(i.note ? [i.note] : []),
            ].join('  '),
          );
        ctx.out(
          `  ${Object.entries(r.counts)
            .map(([k, n]) => `${classNames[k as ReconcileItem['class']]}: ${n}`)
            .join(', ')}`,
        );
      }
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
