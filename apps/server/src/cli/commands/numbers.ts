import { brands, fromMinor, toMinor } from '@numa/contract';
import { NumberRuleError } from '../../services/rentals/numbers/assign';
import { phoneFacts } from '../../lib/sms';
import { ApiError } from '../../lib/errors';
import { CliError, type CliContext, type Command } from '../context';

async function mustFind(ctx: CliContext, who: string | undefined) {
  if (!who) throw new CliError('Which account? Give an id, an e-mail or a full number (+14155550100).');
  const a = await ctx.operator.find(who, ctx.brand);
  if (!a) throw new CliError(`No ${ctx.brand} account matches ${who}.`);
  return a;
}

const subsOf = (ctx: CliContext) => {
  if (!ctx.subscriptions) throw new CliError('Number rental is not available in this context.');
  return ctx.subscriptions;
};

const numberArg = (s: string | undefined) => {
  if (!s) throw new CliError('Which number? Give it with its country code: +14155550100.');
  const facts = phoneFacts(s);
  if (!facts)
    throw new CliError(
      `${s} is not a valid phone number (give it with its country code, e.g. +14155550100).`,
    );
  return facts;
};

/**
 * Numbers held by accounts (until the numbers area rents them): assign, release, list. A number is
 * held by one account on the whole platform. `demo seed` (also `npm run seed:demo`) creates the demo
 * accounts.
 */
export const numberCommands: Command[] = [
  {
    name: 'number assign',
    usage: 'number assign <account> <+number> [--plan-id 0] [--rent 0] [--toll-free-verified] [--brand numa]',
    summary: 'Give a number to an account (rent is shown on its number list; nothing is charged).',
    options: {
      'plan-id': { type: 'string' },
      rent: { type: 'string' },
      'toll-free-verified': { type: 'boolean' },
    },
    async run(ctx, [who, number], flags) {
      const a = await mustFind(ctx, who);
      const facts = numberArg(number);
      const planId = flags['plan-id'] === undefined ? 0 : Number(flags['plan-id']);
      if (!Number.isInteger(planId) || planId < 0) throw new CliError('--plan-id must be a whole number.');
      const decimals = brands[a.brand].currency.decimals;
      const rentText = flags.rent === undefined ? '0' : String(flags.rent);
      if (!new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`).test(rentText)) {
        throw new CliError(`--rent must be an amount with at most ${decimals} decimals.`);
      }
      try {
        const n = await ctx.numbers.assign({
          accountId: a.id,
          number: facts.full,
          planId,
          monthRent: toMinor(Number(rentText)),
          tollFreeVerified: flags['toll-free-verified'] === true,
        });
        ctx.out(
          `+${n.fullNumber} (${n.country}${n.tollFree ? ', toll-free' : ''}) now belongs to account ${a.id}; next rent date ${n.paymentDate}`,
        );
      } catch (err) {
        if (err instanceof NumberRuleError) throw new CliError(err.message);
        throw err;
      }
    },
  },
  {
    name: 'number release',
    usage: 'number release <+number>',
    summary: 'Take a number back from its account (its messages stay in the history).',
    async run(ctx, [number]) {
      const facts = numberArg(number);
      const removed = await ctx.numbers.release(facts.full);
      if (!removed) throw new CliError(`No account holds +${facts.full}.`);
      ctx.out(`+${removed.fullNumber} released from account ${removed.accountId}`);
    },
  },
  {
    name: 'number list',
    usage: 'number list <account> [--brand numa]',
    summary: "An account's numbers.",
    async run(ctx, [who]) {
      const a = await mustFind(ctx, who);
      const numbers = await ctx.numbers.ofAccount(a.id);
      if (!numbers.length) return ctx.out(`account ${a.id} holds no number`);
      const decimals = brands[a.brand].currency.decimals;
      for (const n of numbers) {
        ctx.out(
          `+${n.fullNumber}  ${n.country}${n.tollFree ? ` toll-free${n.tollFreeVerified ? ' (verified)' : ' (not verified)'}` : ''}  plan ${n.planId}  rent ${fromMinor(n.monthRent).toFixed(decimals)}  next ${n.paymentDate}`,
        );
      }
    },
  },
  {
    name: 'number subs',
    usage: 'number subs <account> [--brand numa]',
    summary: "An account's rented numbers: plan, next payment, renewal, grace, pending plan change.",
    async run(ctx, [who]) {
      const a = await mustFind(ctx, who);
      const subs = await subsOf(ctx).ofAccount(a.id);
      if (!subs.length) return ctx.out(`account ${a.id} rents no number`);
      for (const s of subs) {
        ctx.out(
          `+${s.fullNumber}  plan ${s.planId}${s.pendingPlanId ? ` (→ ${s.pendingPlanId} on ${s.paymentDate})` : ''}  next ${s.paymentDate}  ${s.autoRenew ? 'renews' : 'unsubscribed: released then'}${s.graceSince ? `  unpaid since ${s.graceSince}` : ''}`,
        );
      }
    },
  },
  {
    name: 'number renew-now',
    usage: 'number renew-now',
    summary: 'Run the renewals that are due now (charges, grace notices, reclaims, releases), then return.',
    async run(ctx) {
      await subsOf(ctx).runRenewals();
      ctx.out('renewals due now have run');
    },
  },
  {
    name: 'number reclaim',
    usage: 'number reclaim <+number>',
    summary: 'Take a rented number back now (its account may re-subscribe it for 30 days while it is free).',
    async run(ctx, [number]) {
      const facts = numberArg(number);
      const r = await subsOf(ctx).reclaim(facts.full);
      if (!r) throw new CliError(`No account holds +${facts.full}.`);
      ctx.out(`+${facts.full} reclaimed from account ${r.accountId}`);
    },
  },
  {
    name: 'number restore',
    usage: 'number restore <+number>',
    summary: 'Undo the last reclaim of a number: back to its account on its plan, rent due today.',
    async run(ctx, [number]) {
      const facts = numberArg(number);
      try {
        const r = await subsOf(ctx).restore(facts.full);
        ctx.out(`+${facts.full} restored to account ${r.accountId}; its rent is due today`);
      } catch (err) {
        if (err instanceof ApiError)
          throw new CliError(`+${facts.full} cannot be restored${err.detail ? `: ${err.detail}` : ''}.`);
        throw err;
      }
    },
  },
  {
    name: 'demo seed',
    usage: 'demo seed',
    summary: 'Create the demo accounts demo1@numa.test and demo2@numa.test (US numbers, 20 Coins each).',
    async run(ctx) {
      if (ctx.env.NODE_ENV === 'production')
        throw new CliError('Demo accounts are for development databases only.');
      for (const line of await ctx.demo.seed()) ctx.out(line);
    },
  },
];
