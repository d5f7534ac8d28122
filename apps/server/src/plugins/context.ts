import fp from 'fastify-plugin';
import { codeFromLang, langFromCode, type Lang } from '@numa/contract';

/** Sets `request.ctx`: brand from the host, language from `languagecode` (else Accept-Language). */
export default fp(
  async (app) => {
    app.decorateRequest('ctx', null as never);
    app.addHook('onRequest', async (req) => {
      const q = (req.query ?? {}) as Record<string, unknown>;
      const code = typeof q.languagecode === 'string' ? q.languagecode : undefined;
      const lang: Lang =
        code !== undefined ? langFromCode(code) : /^zh\b/i.test(req.headers['accept-language'] ?? '') ? 'zh' : 'en';
      req.ctx = {
        brand: app.deps.brandOf(req.hostname),
        lang,
        languagecode: codeFromLang(lang),
        webVersion: typeof q.webVersion === 'string' ? q.webVersion.slice(0, 40) : null,
      };
    });
  },
  { name: 'context' },
);
