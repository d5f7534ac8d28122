import type { Lang } from '@numa/contract';
import type { Queryable } from '../db';

export const catalogueRepo = {
  async apps(q: Queryable, lang: Lang) {
    return q.query<{ app: string; name: string; sort: number }>(
      `SELECT app, ${lang === 'zh' ? 'name_zh' : 'name_en'} AS name, sort FROM code_apps WHERE enabled ORDER BY sort, app`,
    );
  },
  async countries(q: Queryable) {
    return q.query<{ code: string; telCode: string; show: boolean }>(
      `SELECT code, tel_code AS "telCode", show FROM code_countries ORDER BY sort, code`,
    );
  },
};
