import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walks up from this file to the package whose name is given (works from src/ and from the bundle in dist/). */
function findPackageRoot(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === name)
      return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package ${name} not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export const serverRoot = findPackageRoot('@numa/server');
export const repoRoot = path.resolve(serverRoot, '../..');
export const defaultWebDist = path.join(repoRoot, 'apps/web/dist');
