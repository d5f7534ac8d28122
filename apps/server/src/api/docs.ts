import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/** The files of Swagger UI the page loads (swagger-ui-dist, served from here: no CDN). */
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Numa API reference</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css">
</head>
<body>
<main id="reference" aria-label="Numa API reference"></main>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script src="/api/v1/docs/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false, persistAuthorization: false });`;

/**
 * The readable reference of /api/v1 at /api/v1/docs (registered in the /api/v1 context): Swagger UI (swagger-ui-dist from npm, served by
 * this server, nothing from another origin) over /api/v1/openapi.json, under a strict CSP.
 */
export default async function docsRoutes(app: FastifyInstance) {
  const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Buffer>();
  const fileOf = (name: string) => {
    let b = files.get(name);
    if (!b) {
      b = readFileSync(path.join(dir, name));
      files.set(name, b);
    }
    return b;
  };
  const csp =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  app.get('/docs', async (_req, reply) =>
    reply.header('content-security-policy', csp).type('text/html; charset=utf-8').send(page),
  );
  app.get('/docs/init.js', async (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(init),
  );
  for (const [name, type] of Object.entries(assets)) {
    app.get(`/docs/${name}`, async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=86400').type(type).send(fileOf(name)),
    );
  }
}
