/**
 * The operator's command: `npm run admin -- <command> …` on the real database: DATABASE_URL, or the
 * embedded one in DATA_DIR — handed to the running server over its private socket when one holds it.
 * `npm run admin -- help` lists commands.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { accountCommands } from './commands/account';
import { reviewCommands } from './commands/review';
import { numberCommands } from './commands/numbers';
import { paymentCommands } from './commands/payments';
import { codeCommands } from './commands/codes';
import { rateCommands } from './commands/rates';
import { apiKeyCommands } from './commands/apikeys';
import { CliError, openLocal, type AdminIo, type Command, type OpenContext } from './context';
import { forwardToServer } from './forward';

export const commands: Command[] = [
  ...accountCommands,
  ...reviewCommands,
  ...numberCommands,
  ...paymentCommands,
  ...codeCommands,
  ...rateCommands,
  ...apiKeyCommands,
];

function help(out: (l?: string) => void) {
  out('usage: npm run admin -- <command> [arguments] [--brand <brand>]');
  out();
  for (const c of commands) out(`  ${c.usage.padEnd(72)} ${c.summary}`);
}

const allOptions = () =>
  Object.assign({ brand: { type: 'string' as const } }, ...commands.map((c) => c.options ?? {})) as Record<
    string,
    { type: 'string' | 'boolean' }
  >;

const stdio: AdminIo = { out: (l = '') => console.log(l), err: (l) => console.error(l) };

export async function runAdmin(
  argv: string[],
  io: AdminIo | AdminIo['out'] = stdio,
  open: OpenContext = openLocal,
): Promise<number> {
  const { out, err: errOut } = typeof io === 'function' ? { out: io, err: stdio.err } : io;
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: allOptions(),
  });
  const flags = values as Record<string, string | boolean>;
  const name = positionals.slice(0, 2).join(' ');
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    help(out);
    return positionals.length === 0 || positionals[0] === 'help' ? 0 : 2;
  }
  let ctx;
  try {
    ctx = await open(flags, out);
    await cmd.run(ctx, positionals.slice(2), flags);
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      errOut(err.message);
      return 1;
    }
    const e = err as { retcode?: number; message: string };
    errOut(e.retcode ? `refused (retcode ${e.retcode}): ${e.message}` : e.message);
    return 1;
  } finally {
    await ctx?.close();
  }
}

/** A command's file arguments made absolute (the server it may be handed to has its own working folder). */
function absoluteFileArgs(argv: string[]): string[] {
  const { positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: allOptions(),
  });
  const cmd = commands.find((c) => c.name === positionals.slice(0, 2).join(' '));
  if (!cmd?.fileArgs) return argv;
  const files = new Set(positionals.slice(2));
  return argv.map((a) => (files.has(a) ? path.resolve(a) : a));
}

const isMain = process.argv[1] && /admin\.(ts|js)$/.test(process.argv[1]);
if (isMain) {
  // a reader that stops early (`| head`) closes the pipe: stop quietly, as command-line tools do
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
  const argv = absoluteFileArgs(process.argv.slice(2));
  const forwarded = await forwardToServer(argv, stdio);
  process.exitCode = forwarded ?? (await runAdmin(argv));
}
