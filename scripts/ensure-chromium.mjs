#!/usr/bin/env node
// The E2E tests drive Debian's Chromium (a browser download is not possible here). Installs it, and
// the CJK and emoji fonts the screens need, when they are missing. Needs root (CI runs as root).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const cjkFont = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const emojiFont = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
const missing = [];
if (!existsSync(chromium)) missing.push('chromium');
if (!existsSync(cjkFont)) missing.push('fonts-noto-cjk');
if (!existsSync(emojiFont)) missing.push('fonts-noto-color-emoji');
if (missing.length) {
  console.log(`installing ${missing.join(', ')} from Debian…`);
  const run = (args) => execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    run(['install', '-y', '--no-install-recommends', ...missing]);
  } catch {
    run(['update']);
    run(['install', '-y', '--no-install-recommends', ...missing]);
  }
}
if (!existsSync(chromium)) {
  console.error(`Chromium is not at ${chromium}; set CHROMIUM_PATH`);
  process.exit(1);
}
