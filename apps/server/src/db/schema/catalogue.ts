import type { Generated } from 'kysely';

/** Migration 002: the apps codes can be received for and the countries numbers come from. */
export interface CatalogueTables {
  code_apps: {
    app: string;
    name_en: string;
    name_zh: string;
    sort: Generated<number>;
    enabled: Generated<boolean>;
  };
  code_countries: {
    code: string;
    tel_code: string;
    sort: Generated<number>;
    show: Generated<boolean>;
  };
}
