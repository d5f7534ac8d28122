import { readFile, writeFile } from 'node:fs/promises';
import { parseRatesCsv, ratesCsvColumns, ratesToCsv } from '../../services/ratesCsv';
import { CliError, type CliContext, type Command } from '../context';

const pricingOf = (ctx: CliContext) => {
  if (!ctx.pricing) throw new CliError('This command needs the pricing service.');
  return ctx.pricing;
};

/**
 * The rates table (one source for the rates page and every charge): the operator imports a new table
 * from CSV, checked line by line and written in one transaction (all or nothing), and exports it.
 */
export const rateCommands: Command[] = [
  {
    name: 'rates import',
    usage: 'rates import <file.csv> [--replace] [--dry-run]',
    summary: `Imports rates (${ratesCsvColumns.join(',')}; price in the unit): every line checked, all written in one transaction or none. --replace also deletes the rates of the file's kinds it does not list.`,
    options: { replace: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
    fileArgs: true,
    async run(ctx, [file], flags) {
      if (!file) throw new CliError('Which file? rates import <file.csv>');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
      }
      const pricing = pricingOf(ctx);
      const parsed = parseRatesCsv(text, await pricing.rateKeys());
      if (!parsed.ok) {
        parsed.errors.forEach((e) => ctx.out(e));
        throw new CliError('Nothing imported: fix the lines above and import the file again.');
      }
      if (flags['dry-run']) {
        ctx.out(`${parsed.rows.length} rates checked; nothing written (--dry-run).`);
        return;
      }
      const r = await pricing.importRates(parsed.rows, { replaceKinds: flags.replace === true });
      ctx.out(`${r.written} rates written${flags.replace === true ? `, ${r.deleted} deleted` : ''}.`);
    },
  },
  {
    name: 'rates export',
    usage: 'rates export [<file.csv>] [--currency usd|cny] [--kind sms]',
    summary: 'Writes the rates in the import format (to the file, or printed).',
    options: { currency: { type: 'string' }, kind: { type: 'string' } },
    fileArgs: true,
    async run(ctx, [file], flags) {
      const rows = await pricingOf(ctx).allRates({
        ...(typeof flags.currency === 'string' ? { currency: flags.currency } : {}),
        ...(typeof flags.kind === 'string' ? { kind: flags.kind } : {}),
      });
      const csv = ratesToCsv(rows);
      if (!file) {
        csv
          .trimEnd()
          .split('\n')
          .forEach((l) => ctx.out(l));
        return;
      }
      await writeFile(file, csv);
      ctx.out(`${rows.length} rates written to ${file}.`);
    },
  },
];
