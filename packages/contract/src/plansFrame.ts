import { z } from 'zod';

/*
 * The embedded plans page's messages (spec 001 §2 "Embedded plans page"): the page runs in a frame of
 * the web client and the two talk only by `postMessage`, each checking the other's origin (the page
 * is served by this server at `plansPagePath`, so both ends expect the page's own origin) and that
 * the message comes from the window it expects (the frame's parent / the frame's content window).
 * Every message carries `source: 'numa-plans'`; anything else is ignored.
 *
 * Page → host:
 * - `pageChange`: the inner page changed. `title` for the host's header, `back` whether the page has
 *   a page to go back to (the host's back button then asks it; otherwise the host leaves the plans
 *   panel), `buttons` the header buttons to show.
 * - `language`: the page asks for the host's language (the host answers with its `language`).
 * - `recharge`: go to Recharge; after the payment dialog closes the host comes back to the plans
 *   panel and loads `returnUrl` (a path of the page, checked by the host) in the frame.
 * - `managePhone`: the host opens its phone verify flow and answers `phone` when it is done.
 *
 * Host → page:
 * - `header`: a header button was pressed (`back` included).
 * - `language`: the host's language (on request and whenever it changes).
 * - `phone`: the account's verified phone after the verify flow (null when it was left).
 */

/** Where the server serves the page (and the prefix every `returnUrl` must have). */
export const plansPagePath = '/plans/';
export const plansMessageSource = 'numa-plans' as const;

export const PlansHeaderButton = z.enum(['edit', 'orderDetails', 'subscriptionHistory', 'orderHistory']);
export type PlansHeaderButton = z.infer<typeof PlansHeaderButton>;

const base = { source: z.literal(plansMessageSource) };

export const PlansPageMessage = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('pageChange'),
    title: z.string().max(120),
    back: z.boolean(),
    buttons: z.array(PlansHeaderButton).max(4),
  }),
  z.object({ ...base, type: z.literal('language') }),
  z.object({
    ...base,
    type: z.literal('recharge'),
    returnUrl: z
      .string()
      .max(2048)
      .refine(
        (u) => u.startsWith(plansPagePath) && !u.includes('//') && !u.includes('\\'),
        'Not a plans page path',
      ),
  }),
  z.object({ ...base, type: z.literal('managePhone') }),
]);
export type PlansPageMessage = z.infer<typeof PlansPageMessage>;

export const PlansHostMessage = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('header'), button: z.union([PlansHeaderButton, z.literal('back')]) }),
  z.object({ ...base, type: z.literal('language'), languagecode: z.enum(['en', 'zh_cn']) }),
  z.object({ ...base, type: z.literal('phone'), phone: z.string().nullable() }),
]);
export type PlansHostMessage = z.infer<typeof PlansHostMessage>;
