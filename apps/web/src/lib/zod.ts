import { z } from 'zod';

/**
 * Imported first by main.tsx, before any schema is built: zod's object parser otherwise probes
 * `new Function` once, which the page's CSP (no 'unsafe-eval') refuses and Chrome reports on every
 * page. Without JIT zod parses the same way, a little slower, which our answers never notice.
 */
z.config({ jitless: true });
