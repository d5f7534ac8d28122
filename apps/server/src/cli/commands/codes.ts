import { brands, fromMinor, toMinor } from '@numa/contract';
import { CodesRuleError } from '../../services/codes/operator';
import { CliError, type Command } from '../context';

const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CodesRuleError) throw new CliError(err.message);
    throw err;
  }
};

export const codeCommands: Command[] = [
  {
    name: 'codes locks',
    usage: 'codes locks [--brand jiema]',
    summary: 'The newest verification-code locks: number, app, account, window, how each ended.',
    async run(ctx) {
      const rows = await ctx.codesOperator.locks(ctx.brand);
      if (!rows.length) ctx.out('no locks');
      for (const l of rows)
        ctx.out(
          `#${l.id} +${l.phone} ${l.app} ${l.country} account ${l.accountId} fee ${fromMinor(l.fee)} ${l.lockedAt.toISOString()} → ${l.expiresAt.toISOString()} ${l.endedAt ? `ended (${l.endReason})` : 'live'}`,
        );
    },
  },
  {
    name: 'codes list',
    usage: 'codes list [--brand jiema]',
    summary: 'The newest code SMS received: id, number, app, account, code, charge.',
    async run(ctx) {
      const rows = await ctx.codesOperator.codes(ctx.brand);
      if (!rows.length) ctx.out('no code SMS');
      for (const s of rows)
        ctx.out(
          `${s.smsId} +${s.phone} ${s.app} account ${s.accountId} code ${s.code || '-'} charge ${fromMinor(s.charge)} ${s.receivedAt.toISOString()}`,
        );
    },
  },
  {
    name: 'codes pool-add',
    usage: 'codes pool-add <+number> [+number …] [--apps whatsapp,telegram] [--supplier simulator]',
    summary: 'Add numbers to the code-number pool (every app unless --apps).',
    options: { apps: { type: 'string' }, supplier: { type: 'string' } },
    async run(ctx, numbers, flags) {
      if (!numbers.length) throw new CliError('Give at least one number, e.g. +12065550100.');
      const apps = String(flags.apps ?? '');
      if (apps && !/^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/.test(apps))
        throw new CliError('--apps is a comma-separated list of app ids.');
      const added = await guard(() =>
        ctx.codesOperator.addToPool(numbers, { supplier: String(flags.supplier ?? 'simulator'), apps }),
      );
      ctx.out(`added ${added} of ${numbers.length} number(s) to the pool`);
    },
  },
  {
    name: 'codes fee',
    usage: 'codes fee <app|*> <country|*> <amount> [--month] [--brand jiema]',
    summary: "Set what a code costs (or, with --month, keeping a number a month) in the brand's currency.",
    options: { month: { type: 'boolean' } },
    async run(ctx, [app, country, amount], flags) {
      const n = Number(amount);
      if (!app || !country || !amount || !Number.isFinite(n) || n < 0)
        throw new CliError('Usage: codes fee <app|*> <country|*> <amount>');
      const currency = brands[ctx.brand].currency.decimals === 2 ? 'cny' : 'usd';
      await ctx.codesOperator.setFee({
        currency,
        kind: flags.month ? 'code_month' : 'code',
        app,
        country: country === '*' ? '*' : country.toUpperCase(),
        amount: toMinor(n),
      });
      ctx.out(
        `${flags.month ? 'monthly rent' : 'code fee'} of ${app} in ${country} (${currency}) set to ${n}`,
      );
    },
  },
  {
    name: 'codes supplier-prices',
    usage: 'codes supplier-prices <app> <country>',
    summary:
      "What the code supplier (CODE_SUPPLIER) charges us for an app's number in a country, and how many it has.",
    async run(ctx, [app, country]) {
      if (!app || !country) throw new CliError('Usage: codes supplier-prices <app> <country>');
      const res = await guard(() => ctx.codesOperator.supplierPrices(app, country.toUpperCase()));
      ctx.out(
        res.prices
          ? `${res.supplier}: ${app} in ${country.toUpperCase()} costs ${res.prices.cost} (the supplier's currency), ${res.prices.count} number(s) free`
          : `${res.supplier}: ${app} in ${country.toUpperCase()} is not sold`,
      );
    },
  },
  {
    name: 'codes refund',
    usage: 'codes refund <smsId>',
    summary: "Give a code's charge back (bill type 8, refund; once per code).",
    async run(ctx, [smsId]) {
      if (!smsId) throw new CliError('Which code SMS? Give its id (codes list shows them).');
      const { row, applied } = await guard(() => ctx.codesOperator.refund(smsId));
      ctx.out(
        applied
          ? `refunded: balance ${fromMinor(row.beforeBalance)} → ${fromMinor(row.afterBalance)} (bill #${row.id})`
          : `already refunded (bill #${row.id})`,
      );
    },
  },
];
