import { z } from 'zod';
import { Empty } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/** A saved reply (issue 22 §3): its id (a decimal string), a name and the text it inserts. */
export const Template = z.object({
  id: z.string().regex(/^\d{1,18}$/),
  name: z.string(),
  text: z.string(),
});
export type Template = z.infer<typeof Template>;

const TemplateId = z.string().regex(/^\d{1,18}$/, 'Invalid template id');

export const getTemplates = defineEndpoint({
  name: 'getTemplates',
  method: 'GET',
  path: '/web/getTemplates',
  access: 'session',
  summary: "The account's saved replies, by name.",
  input: Empty,
  output: z.object({ templates: z.array(Template), max: z.number().int().positive() }),
});

/**
 * Adds a saved reply, or with `id` changes one. Decided: at most `constants.templatesMax` per
 * account (400000 with the reason when full); an unknown id is 100002.
 */
export const saveTemplate = defineEndpoint({
  name: 'saveTemplate',
  method: 'POST',
  path: '/web/saveTemplate',
  access: 'session',
  summary: 'Add a saved reply, or change one (with its id).',
  input: z.strictObject({
    id: TemplateId.optional(),
    name: z.string().trim().min(1, 'Name is required').max(constants.templateNameMax, 'Name too long'),
    text: z.string().trim().min(1, 'Text is required').max(constants.templateTextMax, 'Text too long'),
  }),
  output: z.object({ template: Template }),
});

/** Deletes a saved reply; deleting one that is gone is not an error (`deleted`: false). */
export const delTemplate = defineEndpoint({
  name: 'delTemplate',
  method: 'POST',
  path: '/web/delTemplate',
  access: 'session',
  summary: 'Delete a saved reply.',
  input: z.strictObject({ id: TemplateId }),
  output: z.object({ deleted: z.boolean() }),
});
