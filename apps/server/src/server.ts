import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { loadEnv } from './env';

const env = loadEnv();
const app = await buildApp({ env });

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
});

await app.listen({ port: env.PORT, host: env.HOST });
