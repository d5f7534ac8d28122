import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fromMinor } from '@numa/contract';
import {
  AvailableNumbers,
  AvailableQuery,
  E164Input,
  NumberList,
  PlanList,
  PlansQuery,
  Problem,
  Rental,
  RentNumberBody,
} from '@numa/contract/apiV1';
import { ApiError } from '../../lib/errors';
import { phoneFacts } from '../../lib/sms';
import { apiRoute } from '../route';

const problems = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, { description: 'Problem details (RFC 9457)', schema: Problem }]));

/** The calling code of a rentable country (constants.numberCountries). */
const telCodes = { US: '1', CA: '1', TollFree: '1', GB: '44', AU: '61' } as const;

/** /api/v1 numbers: held, available, plans, rent, stop renewing (issue 21). */
export default async function numberRoutes(app: FastifyInstance) {
  const { numbers, subscriptions } = app.deps;

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/numbers',
      tag: 'Numbers',
      summary: 'The numbers you hold',
      scopes: ['numbers', 'messages:read', 'messages:send'],
      responses: { 200: { description: 'Your numbers', schema: NumberList }, ...problems(401, 403, 429) },
    },
    async ({ principal }) => {
      const rows = await numbers.ofAccount(principal.accountId);
      return {
        status: 200,
        body: {
          data: rows.map((n) => ({
            number: `+${n.fullNumber}`,
            country: n.country,
            tollFree: n.tollFree,
            monthRent: fromMinor(n.monthRent),
            nextPaymentDate: n.paymentDate,
            planId: n.planId,
          })),
        },
      };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/numbers/available',
      tag: 'Numbers',
      summary: 'Numbers you can rent in a country (and area code)',
      scopes: ['numbers'],
      query: AvailableQuery,
      cost: 3,
      responses: {
        200: { description: 'Free numbers', schema: AvailableNumbers },
        ...problems(400, 401, 403, 429),
      },
    },
    async ({ query }) => {
      const telCode = telCodes[query.country];
      const { numbers: found } = await subscriptions.freeNumbers({
        code: query.country,
        type: query.type,
        telCode,
        areaCode: query.areaCode,
      });
      return { status: 200, body: { numbers: found.map((n) => `+${telCode}${n}`) } };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/numbers/plans',
      tag: 'Numbers',
      summary: 'The plans numbers of a country and kind are rented on, in your brand’s unit',
      scopes: ['numbers'],
      query: PlansQuery,
      responses: { 200: { description: 'Plans', schema: PlanList }, ...problems(400, 401, 403, 429) },
    },
    async ({ principal, query }) => {
      const { planList } = await subscriptions.planList({
        brand: principal.brand,
        lang: 'en',
        code: query.country,
        type: query.type,
      });
      return {
        status: 200,
        body: {
          data: planList.map((p) => ({
            id: p.planId,
            name: p.planName,
            price: p.planRent,
            period: p.planRentPeriod,
            monthRent: p.monthRent,
            activationFee: p.activationFee,
          })),
        },
      };
    },
  );

  apiRoute(
    app,
    {
      method: 'POST',
      path: '/api/v1/numbers',
      tag: 'Numbers',
      summary: 'Rent a number on a plan (the first period is charged at once)',
      description:
        'The same rules and prices as the web page: a verified billing profile with a phone is needed (100023), the balance must cover the first period (400001). Renting a number you just rented answers the same rental and charges nothing more.',
      scopes: ['numbers'],
      body: RentNumberBody,
      responses: { 201: { description: 'Rented', schema: Rental }, ...problems(400, 401, 403, 429) },
    },
    async ({ principal, body }) => {
      const facts = phoneFacts(body.number);
      if (!facts || facts.telCode !== telCodes[body.country])
        throw new ApiError(100001, null, 'number: not a number of that country');
      const r = await subscriptions.subscribe(principal.accountId, principal.brand, 'en', {
        planId: body.planId,
        telCode: facts.telCode,
        phone: facts.national,
        code: body.country,
        type: body.type,
      });
      return { status: 201, body: { number: `+${facts.full}`, historyId: r.historyId, message: r.subHint } };
    },
  );

  apiRoute(
    app,
    {
      method: 'DELETE',
      path: '/api/v1/numbers/{number}',
      tag: 'Numbers',
      summary: 'Stop renewing a number (it stays yours until its paid period ends)',
      scopes: ['numbers'],
      params: z.strictObject({ number: E164Input }),
      responses: { 204: { description: 'It will not renew', schema: null }, ...problems(400, 401, 403, 429) },
    },
    async ({ principal, params }) => {
      const facts = phoneFacts(params.number);
      if (!facts) throw new ApiError(100001, null, 'number: not a phone number');
      await subscriptions.unsubscribe(principal.accountId, { telCode: facts.telCode, phone: facts.national });
      return { status: 204, body: null };
    },
  );
}
