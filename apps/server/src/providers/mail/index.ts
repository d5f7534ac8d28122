import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import { simulatorsAllowed } from '../requirements';
import { NoMail } from './none';
import type { MailPort } from './port';
import { SimulatedMail } from './simulator';
import { SmtpMail } from './smtp';

/**
 * The mail MAIL names (smtp is implied by SMTP_URL): SMTP, the simulator where simulators may run,
 * or none (also production with neither set, which server.ts refuses to start).
 */
export function createMail(
  env: Pick<Env, 'NODE_ENV' | 'DEMO_MODE' | 'MAIL' | 'SMTP_URL' | 'MAIL_FROM'>,
  log?: FastifyBaseLogger,
): MailPort {
  if (env.MAIL === 'smtp') {
    if (!env.SMTP_URL) throw new Error('MAIL=smtp needs SMTP_URL');
    return new SmtpMail(env.SMTP_URL, env.MAIL_FROM);
  }
  if (env.MAIL === 'simulator' && simulatorsAllowed(env)) return new SimulatedMail(log);
  return new NoMail();
}
