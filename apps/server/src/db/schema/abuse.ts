import type { Generated } from 'kysely';

/** Migrations 013–014 (issue 9, holes 3 and 8): phones one account each, invite caps. */
export interface AbuseTables {
  phone_conflicts: {
    account_id: number;
    brand: string;
    tel_code: string;
    phone: string;
    kept_by: number;
    created_at: Generated<Date>;
  };
}
