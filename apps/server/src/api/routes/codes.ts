import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { constants, fromMinor, type SmsItem } from '@numa/contract';
import { CodeLock, CodeLockBody, CodeLockQuery, E164Input, Problem } from '@numa/contract/apiV1';
import { ApiError } from '../../lib/errors';
import { apiRoute } from '../route';

const problems = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, { description: 'Problem details (RFC 9457)', schema: Problem }]));

type Got = NonNullable<Awaited<ReturnType<FastifyInstance['deps']['codes']['lockOf']>>>;

const view = (g: Got): CodeLock => ({
  number: `+${g.lock.phone}`,
  app: g.lock.app,
  country: g.lock.country,
  fee: fromMinor(g.lock.fee),
  expiresAt: g.lock.expiresAt.toISOString(),
  active: g.live,
  codes: g.sms.map((s: SmsItem) => ({
    id: s.smsId,
    text: s.text,
    code: s.code,
    charge: s.charge,
    receivedAt: new Date(s.date).toISOString(),
  })),
});

/** /api/v1 verification codes: lock a number for an app, read what arrived, give it back (issue 21). */
export default async function codeRoutes(app: FastifyInstance) {
  const { codes } = app.deps;

  apiRoute(
    app,
    {
      method: 'POST',
      path: '/api/v1/codes/locks',
      tag: 'Verification codes',
      summary: 'Lock a number to receive an app’s code (charged only when a code arrives)',
      description: `The number is yours for ${constants.codes.lockMs / 60_000} minutes; each code that arrives is charged once (the lock's fee); nothing is charged without one. At most ${constants.codes.maxLiveLocks} live locks per account.`,
      scopes: ['codes'],
      body: CodeLockBody,
      responses: { 201: { description: 'Locked', schema: CodeLock }, ...problems(400, 401, 403, 429) },
    },
    async ({ principal, body }) => {
      const locked = await codes.lock({
        accountId: principal.accountId,
        brand: principal.brand,
        lang: 'en',
        app: body.app,
        country: body.country,
        number: body.number,
      });
      const got = await codes.lockOf(principal.accountId, { number: locked.phone, app: body.app });
      if (!got) throw new ApiError(500000);
      return { status: 201, body: view(got) };
    },
  );

  const NumberParam = z.strictObject({ number: E164Input });

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/codes/locks/{number}',
      tag: 'Verification codes',
      summary: 'Your latest lock of a number for an app, with the codes it received',
      scopes: ['codes'],
      params: NumberParam,
      query: CodeLockQuery,
      responses: { 200: { description: 'The lock', schema: CodeLock }, ...problems(400, 401, 403, 404, 429) },
    },
    async ({ principal, params, query }) => {
      const got = await codes.lockOf(principal.accountId, { number: params.number, app: query.app });
      if (!got) throw new ApiError(100002, null, 'no lock of yours on this number for this app');
      return { status: 200, body: view(got) };
    },
  );

  apiRoute(
    app,
    {
      method: 'DELETE',
      path: '/api/v1/codes/locks/{number}',
      tag: 'Verification codes',
      summary: 'Give the number back now (done, or not needed)',
      scopes: ['codes'],
      params: NumberParam,
      query: CodeLockQuery,
      responses: {
        200: { description: 'The lock as it ended', schema: CodeLock },
        ...problems(400, 401, 403, 404, 429),
      },
    },
    async ({ principal, params, query }) => {
      const got = await codes.lockOf(principal.accountId, { number: params.number, app: query.app });
      if (!got) throw new ApiError(100002, null, 'no lock of yours on this number for this app');
      if (got.live)
        await codes.endLockOf(principal.accountId, got.lock.id, got.sms.length ? 'polled_out' : 'released');
      const ended = await codes.lockOf(principal.accountId, { id: got.lock.id });
      return { status: 200, body: view(ended ?? got) };
    },
  );
}
