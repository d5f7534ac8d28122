import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** Saved replies (issue 22 §3): list, add or change, delete. */
export default async function templateRoutes(app: FastifyInstance) {
  const { templates } = app.deps;
  route(app, endpoints.getTemplates, async ({ session }) => templates.list(session.accountId));
  route(app, endpoints.saveTemplate, async ({ session, input }) =>
    templates.save(session.accountId, { id: input.id, name: input.name, text: input.text }),
  );
  route(app, endpoints.delTemplate, async ({ session, input }) =>
    templates.remove(session.accountId, input.id),
  );
}
