/// <reference lib="webworker" />
// The captcha's proof of work, worked out off the main thread: altcha-lib's own worker loop with the
// Web Crypto SHA-256 (see pow.ts).
import { handler } from 'altcha-lib/workers/shared';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';

handler({ deriveKey });
