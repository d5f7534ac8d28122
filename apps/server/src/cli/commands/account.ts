import { brands, fromMinor } from '@numa/contract';
import { AccountStatus } from '../../services/accounts';
import { CliError, describeAccount, type CliContext, type Command } from '../context';

async function mustFind(ctx: CliContext, who: string | undefined) {
  if (!who) throw new CliError('Which account? Give an id, an e-mail or a full number (+14155550100).');
  const a = await ctx.operator.find(who, ctx.brand);
  if (!a) throw new CliError(`No ${ctx.brand} account matches ${who}.`);
  return a;
}

const amountOf = (s: string | undefined, decimals: number) => {
  const n = Number(s);
  if (!s || !Number.isFinite(n) || n <= 0 || !new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`).test(s)) {
    throw new CliError(`The amount must be a positive number with at most ${decimals} decimals.`);
  }
  return n;
};

export const accountCommands: Command[] = [
  {
    name: 'account show',
    usage: 'account show <id|email|+number> [--brand numa]',
    summary: 'Show an account: addresses, status, balance and its last bills.',
    async run(ctx, [who]) {
      const a = await mustFind(ctx, who);
      const brand = brands[a.brand];
      describeAccount(a, brand).forEach((l) => ctx.out(l));
      const bills = await ctx.operator.recentBills(a.id);
      ctx.out(bills.length ? '  last bills:' : '  no bills yet');
      for (const b of bills) {
        const sign = b.charge < 0 ? '-' : '+';
        ctx.out(
          `    #${b.id} type ${b.type} ${sign}${Math.abs(fromMinor(b.charge)).toFixed(brand.currency.decimals)} → ${fromMinor(b.afterBalance).toFixed(brand.currency.decimals)}  ${b.createdAt.toISOString()}`,
        );
      }
    },
  },
  {
    name: 'account credit',
    usage: 'account credit <id|email|+number> <amount> [--note "why"] [--brand numa]',
    summary: 'Add to a balance (bill type 9, adjustment).',
    options: { note: { type: 'string' } },
    async run(ctx, [who, amount], flags) {
      const a = await mustFind(ctx, who);
      const row = await ctx.operator.adjust(
        a.id,
        amountOf(amount, brands[a.brand].currency.decimals),
        String(flags.note ?? 'operator credit'),
      );
      ctx.out(
        `credited: balance ${fromMinor(row.beforeBalance)} → ${fromMinor(row.afterBalance)} (bill #${row.id})`,
      );
    },
  },
  {
    name: 'account debit',
    usage: 'account debit <id|email|+number> <amount> [--note "why"] [--brand numa]',
    summary: 'Take from a balance (bill type 9, adjustment); it may go below zero.',
    options: { note: { type: 'string' } },
    async run(ctx, [who, amount], flags) {
      const a = await mustFind(ctx, who);
      const row = await ctx.operator.adjust(
        a.id,
        -amountOf(amount, brands[a.brand].currency.decimals),
        String(flags.note ?? 'operator debit'),
      );
      ctx.out(
        `debited: balance ${fromMinor(row.beforeBalance)} → ${fromMinor(row.afterBalance)} (bill #${row.id})`,
      );
    },
  },
  {
    name: 'account suspend',
    usage: 'account suspend <id|email|+number> [--brand numa]',
    summary: 'Suspend an account: its calls get 100008 until restored.',
    async run(ctx, [who]) {
      const a = await mustFind(ctx, who);
      await ctx.operator.setStatus(a.id, AccountStatus.suspended);
      ctx.out(`account ${a.id} suspended`);
    },
  },
  {
    name: 'account restore',
    usage: 'account restore <id|email|+number> [--brand numa]',
    summary: 'Lift a suspension.',
    async run(ctx, [who]) {
      const a = await mustFind(ctx, who);
      await ctx.operator.setStatus(a.id, AccountStatus.active);
      ctx.out(`account ${a.id} active`);
    },
  },
];
