import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** The code-receiving catalogue: apps and countries (the applist front page uses it anonymously). */
export default async function catalogueRoutes(app: FastifyInstance) {
  const { catalogue } = app.deps;
  route(app, endpoints.getAppList, async ({ ctx }) => catalogue.appList(ctx.lang));
}
