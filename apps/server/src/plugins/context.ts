import fp from 'fastify-plugin';
import { codeFromLang, langFromCode, LanguageCode, type Lang } from '@numa/contract';
import { ApiError } from '../lib/errors';

/**
 * Sets `request.ctx`: brand from the host, language from `languagecode` (else Accept-Language).
 * A `/web` call whose `languagecode` is not one of the contract's (`en`, `zh_cn`) is refused with
 * 100001, answered in the Accept-Language language.
 */
export default fp(
  async (app) => {
    app.decorateRequest('ctx', null as never);
    app.addHook('onRequest', async (req) => {
      const q = (req.query ?? {}) as Record<string, unknown>;
      const given = q.languagecode;
      const code = LanguageCode.safeParse(given);
      const lang: Lang = code.success
        ? langFromCode(code.data)
        : /^zh\b/i.test(req.headers['accept-language'] ?? '')
          ? 'zh'
          : 'en';
      req.ctx = {
        brand: app.deps.brandOf(req.hostname),
        lang,
        languagecode: codeFromLang(lang),
        webVersion: typeof q.webVersion === 'string' ? q.webVersion.slice(0, 40) : null,
      };
      if (given !== undefined && !code.success && req.url.startsWith('/web/')) {
        throw new ApiError(
          100001,
          { issues: [{ path: 'languagecode', message: 'Expected en or zh_cn' }] },
          'languagecode',
        );
      }
    });
  },
  { name: 'context' },
);
