/**
 * `npm run seed:demo` (dev mode): the demo accounts demo1@numa.test and demo2@numa.test on the numa
 * brand, each with a US number and 20 Coins. The same as `npm run admin -- demo seed`: it runs in the
 * server when one holds the embedded database, else on the database itself. Running it again changes
 * nothing.
 */
import { runAdmin } from './admin';
import { forwardToServer } from './forward';

const argv = ['demo', 'seed'];
const io = { out: (l = '') => console.log(l), err: (l: string) => console.error(l) };
const forwarded = await forwardToServer(argv, io);
const code = forwarded ?? (await runAdmin(argv, io));
if (code === 0) {
  const site = `http://localhost:${process.env.PORT ?? '8080'}`;
  console.log();
  console.log(`Try a conversation: open ${site} in two browser windows (one of them private), sign in as`);
  console.log('demo1@numa.test in one and demo2@numa.test in the other; the sign-in codes are at');
  console.log(`${site}/dev/outbox?to=demo1@numa.test (and ?to=demo2@numa.test).`);
}
process.exitCode = code;
