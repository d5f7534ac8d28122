import { ApiScope, apiScopes } from '@numa/contract/developer';
import { ApiError } from '../../lib/errors';
import { CliError, type CliContext, type Command } from '../context';

async function mustFind(ctx: CliContext, who: string | undefined) {
  if (!who) throw new CliError('Which account? Give an id, an e-mail or a full number (+14155550100).');
  const a = await ctx.operator.find(who, ctx.brand);
  if (!a) throw new CliError(`No ${ctx.brand} account matches ${who}.`);
  return a;
}

const keysOf = (ctx: CliContext) => {
  if (!ctx.apiKeys) throw new CliError('API keys are not available in this context.');
  return ctx.apiKeys;
};

/**
 * API keys of any account (issue 21): list, create, revoke. `create` prints the new key alone on its
 * last line (scripts and tests read it); it is never shown again.
 */
export const apiKeyCommands: Command[] = [
  {
    name: 'apikey list',
    usage: 'apikey list <account> [--brand numa]',
    summary: "An account's API keys (live and revoked), with their scopes and last use.",
    async run(ctx, [who]) {
      const a = await mustFind(ctx, who);
      const keys = await keysOf(ctx).listAll(a.id);
      if (!keys.length) ctx.out(`account ${a.id} has no API keys`);
      for (const k of keys) {
        const used = k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : 'never used';
        const state = k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'live';
        ctx.out(`${k.id}\t${k.prefix}…\t${k.name}\t${k.scopes.join(',')}\t${used}\t${state}`);
      }
    },
  },
  {
    name: 'apikey create',
    usage: `apikey create <account> [--name "ops"] [--scopes ${apiScopes.join(',')}] [--brand numa]`,
    summary: 'Make an API key for an account; the key is printed alone on the last line, once.',
    options: { name: { type: 'string' }, scopes: { type: 'string' } },
    async run(ctx, [who], flags) {
      const a = await mustFind(ctx, who);
      const name =
        typeof flags.name === 'string' && flags.name.trim() ? flags.name.trim().slice(0, 60) : 'operator';
      const wanted =
        typeof flags.scopes === 'string' ? flags.scopes.split(',').map((s) => s.trim()) : [...apiScopes];
      const scopes = wanted.map((s) => {
        const p = ApiScope.safeParse(s);
        if (!p.success) throw new CliError(`--scopes: ${s} is not one of ${apiScopes.join(', ')}`);
        return p.data;
      });
      try {
        const { key, secret } = await keysOf(ctx).create({ accountId: a.id, brand: a.brand, name, scopes });
        ctx.out(`key ${key.id} (${key.scopes.join(',')}) made for account ${a.id}; it is shown once:`);
        ctx.out(secret);
      } catch (err) {
        if (err instanceof ApiError) throw new CliError(err.message);
        throw err;
      }
    },
  },
  {
    name: 'apikey revoke',
    usage: 'apikey revoke <account> <key id> [--brand numa]',
    summary: 'Revoke an API key: refused at once (every server with Redis; else within SESSION_CACHE_MS).',
    async run(ctx, [who, id]) {
      const a = await mustFind(ctx, who);
      if (!id) throw new CliError('Which key? Give its id (apikey list shows them).');
      try {
        await keysOf(ctx).revoke(a.id, id);
      } catch (err) {
        if (err instanceof ApiError) throw new CliError(`account ${a.id} has no live key ${id}`);
        throw err;
      }
      ctx.out(`key ${id} of account ${a.id} revoked`);
    },
  },
];
