import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every file or folder of the repository that the docs name exists (issue 19 §5): a doc that cites a
 * moved or removed file fails here. A name counts when it is written as a path (`services/chats/`,
 * apps/web/src/lib/api.ts, `LoginScreen.tsx`); it may be relative to one of the packages' roots
 * below, as the docs write them. Names with placeholders (`<area>`, `NNN_`, `…`, `*`), URLs and
 * routes (`/web/…`), what exists only at run time (DATA_DIR, dist/, results) and former names struck
 * through (~~`old/name.ts`~~) are not files.
 */
const repo = path.resolve(import.meta.dirname, '..');
const docs = [
  ...readdirSync(path.join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'README.md',
];
/** Where a relative name may start, as the docs write them (the server's `services/x.ts`, the web's `app/x.tsx`). */
const bases = [
  '',
  'apps/server',
  'apps/server/src',
  'apps/web',
  'apps/web/src',
  'apps/web/src/features',
  'packages/contract',
  'packages/contract/src',
  'e2e',
  'e2e/tests',
  'bench',
  'scripts',
];
const extensions = ['', '.ts', '.tsx', '.mjs', '.js'];
const fileName = /\.(ts|tsx|mjs|js|json|sql|css|md|html|csv|yml|yaml)$/;
/** Folders that exist only at run time, inside DATA_DIR (README's environment table). */
const runtime = new Set(['pg/', 'media/']);
/** The npm packages the workspaces depend on: `ipaddr.js` is a package, not a file. */
const packages = new Set(
  ['package.json', 'apps/server/package.json', 'apps/web/package.json', 'packages/contract/package.json']
    .map((f) => JSON.parse(readFileSync(path.join(repo, f), 'utf8')) as Record<string, unknown>)
    .flatMap((p) =>
      ['dependencies', 'devDependencies', 'optionalDependencies'].flatMap((k) =>
        Object.keys((p[k] as Record<string, string> | undefined) ?? {}),
      ),
    ),
);
/** Placeholders, URLs, routes, packages, lint rules (`import-x/no-cycle`) and run-time places. */
const notAFile =
  /[<>{}*…|$=\s(),'"`]|NNN|:\/\/|^\/|^@|^\.{1,2}\/|^(import-x|react-hooks)\/|^(DATA_DIR|dist|test-results|node_modules)\b|\/dist(\/|$)|results\//;

/** Every name of the repository's files (for a bare file name such as `LoginScreen.tsx`). */
function allNames(dir = repo, out = new Set<string>()): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    if (e.isDirectory()) allNames(path.join(dir, e.name), out);
    else out.add(e.name);
  }
  return out;
}

/** The path-like names a doc cites: in backticks, and file paths written in the text. */
function citedPaths(doc: string): string[] {
  const found = new Set<string>();
  // a former name, struck through (~~services/chats.ts~~ → `services/chats/`), is history, not a file
  const text = doc.replace(/~~[^~\n]*~~/g, ' ');
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const t = m[1]!.trim();
    if (notAFile.test(t)) continue;
    if (fileName.test(t) || (/^[\w.-]+(\/[\w.-]+)*\/?$/.test(t) && t.includes('/'))) found.add(t);
  }
  // outside backticks: a path with a folder and a file extension (headings, prose)
  const prose = text.replace(/`[^`\n]*`/g, ' ').replace(/\]\([^)]*\)/g, ' ');
  for (const m of prose.matchAll(
    /(?<![\w/.@-])((?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|mjs|sql|css|md))(?![\w/])/g,
  )) {
    if (!notAFile.test(m[1]!)) found.add(m[1]!);
  }
  return [...found];
}

function exists(name: string, names: Set<string>): boolean {
  const clean = name.replace(/\/$/, '');
  if (!clean.includes('/'))
    return names.has(clean) || bases.some((b) => existsSync(path.join(repo, b, clean)));
  return bases.some((b) =>
    extensions.some((e) => {
      const p = path.join(repo, b, clean + e);
      return existsSync(p) && (e === '' || statSync(p).isFile());
    }),
  );
}

describe('the paths the docs name', () => {
  const names = allNames();
  it.each(docs)('%s names only paths that exist', (doc) => {
    const text = readFileSync(path.join(repo, doc), 'utf8');
    const missing = citedPaths(text).filter((p) => !runtime.has(p) && !packages.has(p) && !exists(p, names));
    expect(missing, `${doc} names paths that do not exist`).toEqual([]);
  });

  it('finds the names as the docs write them', () => {
    expect(
      citedPaths(
        'see `services/chats/` and apps/web/src/lib/api.ts; `<area>.css`, `/web/x`, `DATA_DIR/media`, ~~`a/b.ts`~~',
      ),
    ).toEqual(['services/chats/', 'apps/web/src/lib/api.ts']);
    expect(exists('services/chats/', names)).toBe(true);
    expect(exists('services/chats.ts', names)).toBe(false);
    expect(exists('app/useBalanceSocket.ts', names)).toBe(false);
    expect(exists('LoginScreen.tsx', names)).toBe(true);
  });
});
