import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';
import { catalogueRepo } from '../repositories/catalogue';

const regionNames = { en: new Intl.DisplayNames(['en'], { type: 'region' }), zh: new Intl.DisplayNames(['zh-Hans'], { type: 'region' }) };
const tollFree = { en: 'Toll-free', zh: '免费号码' };

/** The code-receiving catalogue: apps and countries (the applist front page uses it anonymously). */
export default async function catalogueRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  route(app, endpoints.getAppList, async ({ ctx }) => {
    const [apps, countries] = await Promise.all([catalogueRepo.apps(db, ctx.lang), catalogueRepo.countries(db)]);
    return {
      appList: apps,
      countrys: countries.map((c) => ({
        ...c,
        name: c.code === 'TollFree' ? tollFree[ctx.lang] : (regionNames[ctx.lang].of(c.code) ?? c.code),
      })),
    };
  });
}
