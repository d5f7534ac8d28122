import type { Generated } from 'kysely';

/** Migration 131: saved replies (issue 22 §3). */
export interface TemplatesTables {
  message_templates: {
    id: Generated<number>;
    account_id: number;
    name: string;
    text: string;
    updated_at: Generated<Date>;
  };
}
