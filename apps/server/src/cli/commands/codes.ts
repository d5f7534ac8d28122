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
      const currency = brands[ctx.brand].currency.code;
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
      "What each code supplier (CODE_SUPPLIER, CODE_SUPPLIER_FAILOVER) charges us for an app's number in a country, and how many it has.",
    async run(ctx, [app, country]) {
      if (!app || !country) throw new CliError('Usage: codes supplier-prices <app> <country>');
      const c = country.toUpperCase();
      for (const res of await guard(() => ctx.codesOperator.supplierPrices(app, c)))
        ctx.out(
          'error' in res && res.error
            ? `${res.supplier}: the supplier answered: ${res.error}`
            : res.prices
              ? `${res.supplier}: ${app} in ${c} costs ${res.prices.cost} (the supplier's currency), ${res.prices.count} number(s) free`
              : `${res.supplier}: ${app} in ${c} is not sold`,
        );
    },
  },
  {
    name: 'codes supplier-status',
    usage: 'codes supplier-status [--limit 20]',
    summary:
      "Each code supplier's recent state (last success, last refusal and what to do, pause), its latest refusals, and the orders set per app and country.",
    options: { limit: { type: 'string' } },
    async run(ctx, _args, flags) {
      const limit = Math.min(200, Math.max(1, Number(flags.limit ?? 20) || 20));
      const s = await ctx.codesOperator.supplierStatus(limit);
      const at = (d: Date | null) => (d ? d.toISOString() : 'never');
      if (!s.suppliers.length) ctx.out('no real code supplier is configured (CODE_SUPPLIER=simulator)');
      for (const sup of s.suppliers) {
        const st = sup.state;
        const paused =
          st?.pausedUntil && st.pausedUntil > s.now ? `PAUSED until ${st.pausedUntil.toISOString()}` : '';
        const health = !st
          ? 'no answer recorded yet'
          : paused || (st.consecutiveFailures === 0 ? 'ok' : `${st.consecutiveFailures} refusal(s) in a row`);
        ctx.out(`${sup.name}${sup.configured ? '' : ' (not configured here)'}: ${health}`);
        if (!st) continue;
        ctx.out(`  last success  ${at(st.lastOkAt)}   successes ${st.okCount}, refusals ${st.failureCount}`);
        if (st.lastFailureAt)
          ctx.out(
            `  last refusal  ${at(st.lastFailureAt)}  ${st.lastKind}: ${st.lastReason}${st.lastAnswer ? ` (answer: ${st.lastAnswer.slice(0, 80)})` : ''}`,
          );
        if (st.lastAction) ctx.out(`  to do         ${st.lastAction}`);
      }
      ctx.out();
      ctx.out(
        s.routes.length
          ? 'order per app and country:'
          : `order: ${s.configured.join(' → ') || '-'} (no order set per app or country)`,
      );
      for (const r of s.routes) ctx.out(`  ${r.app} ${r.country}: ${r.suppliers.split(',').join(' → ')}`);
      ctx.out();
      ctx.out(s.events.length ? 'latest refusals:' : 'no refusals recorded');
      for (const e of s.events)
        ctx.out(
          `  ${e.at.toISOString()} ${e.supplier} ${e.operation}${e.app ? ` ${e.app}/${e.country}` : ''} ${e.kind}: ${e.reason}${e.action ? ` — ${e.action}` : ''}`,
        );
    },
  },
  {
    name: 'codes supplier-order',
    usage: 'codes supplier-order <app|*> <country|*> <supplier[,supplier…]> | --clear',
    summary:
      'Set the order code suppliers are asked in for an app and country (the next is tried when one has no number or fails); --clear goes back to the configured order.',
    options: { clear: { type: 'boolean' } },
    async run(ctx, [app, country, list], flags) {
      if (!app || !country || (!list && !flags.clear))
        throw new CliError(
          'Usage: codes supplier-order <app|*> <country|*> <supplier[,supplier…]> (or --clear)',
        );
      if (app !== '*' && !/^[a-z0-9_.-]{1,40}$/.test(app)) throw new CliError('The app is an app id or *.');
      const c = country === '*' ? '*' : country.toUpperCase();
      if (c !== '*' && !/^[A-Z]{2}$/.test(c)) throw new CliError('The country is an ISO code (US) or *.');
      if (flags.clear) {
        const cleared = await ctx.codesOperator.clearSupplierOrder(app, c);
        ctx.out(cleared ? `order of ${app} in ${c} cleared` : `no order was set for ${app} in ${c}`);
        return;
      }
      const names = list!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const res = await guard(() => ctx.codesOperator.setSupplierOrder(app, c, names));
      ctx.out(`${app} in ${c}: ${names.join(' → ')}`);
      if (res.notConfigured.length)
        ctx.out(
          `note: ${res.notConfigured.join(', ')} is not configured on this machine: it is skipped until it is`,
        );
    },
  },
  {
    name: 'codes supplier-resume',
    usage: 'codes supplier-resume <supplier>',
    summary:
      'End the pause a supplier got for an account-level refusal (after topping up, fixing the key …).',
    async run(ctx, [name]) {
      if (!name) throw new CliError('Which supplier? (codes supplier-status lists them)');
      const done = await ctx.codesOperator.resumeSupplier(name);
      ctx.out(done ? `${name} is asked again` : `${name} has no recorded state`);
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
