import { constants, type Template } from '@numa/contract';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import { templatesRepo, type TemplateRow } from '../repositories/templates';
import { accountText } from './accountTexts';

const view = (r: TemplateRow): Template => ({ id: String(r.id), name: r.name, text: r.text });

/** Saved replies (issue 22 §3): per account, at most constants.templatesMax. */
export function createTemplateService(db: Database) {
  return {
    async list(accountId: number) {
      return {
        templates: (await templatesRepo.list(db.q, accountId)).map(view),
        max: constants.templatesMax,
      };
    },

    /** Adds one, or with `id` changes one; the count is taken under the account's lock, so two adds at once cannot pass the limit. */
    async save(accountId: number, p: { id?: string | undefined; name: string; text: string }) {
      return db.tx(async (tx) => {
        if (p.id !== undefined) {
          const row = await templatesRepo.update(tx, accountId, Number(p.id), p.name, p.text);
          if (!row) throw new ApiError(100002);
          return { template: view(row) };
        }
        await templatesRepo.lockAccount(tx, accountId);
        if ((await templatesRepo.count(tx, accountId)) >= constants.templatesMax) {
          throw new ApiError(
            400000,
            { max: constants.templatesMax },
            'templates full',
            accountText('templatesFull', { max: constants.templatesMax }),
          );
        }
        return { template: view(await templatesRepo.insert(tx, accountId, p.name, p.text)) };
      });
    },

    async remove(accountId: number, id: string) {
      return { deleted: await templatesRepo.remove(db.q, accountId, Number(id)) };
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
