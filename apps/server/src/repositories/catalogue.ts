import type { Lang } from '@numa/contract';
import type { Q } from '../db';

export const catalogueRepo = {
  async apps(q: Q, lang: Lang): Promise<{ app: string; name: string; sort: number }[]> {
    return q
      .selectFrom('code_apps')
      .select(['app', lang === 'zh' ? 'name_zh as name' : 'name_en as name', 'sort'])
      .where('enabled', '=', true)
      .orderBy('sort')
      .orderBy('app')
      .execute();
  },
  async countries(q: Q): Promise<{ code: string; telCode: string; show: boolean }[]> {
    return q
      .selectFrom('code_countries')
      .select(['code', 'tel_code as telCode', 'show'])
      .orderBy('sort')
      .orderBy('code')
      .execute();
  },
};
