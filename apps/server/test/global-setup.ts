import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, readMigrations } from '../src/db/migrate';
import { openPglite } from '../src/db/pglite';
import { ensurePgTemplate } from './pg-template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The migrated PostgreSQL template database (test/pg-template.ts), with TEST_DATABASE_URL. */
    pgTemplate: string;
  }
}

/**
 * PGlite's first start (initdb) takes seconds; reopening a data folder takes a fraction of one. So one
 * migrated template is made per set of migrations, and each suite opens its own copy.
 */
export default async function setup(project: TestProject) {
  const migrations = readMigrations();
  const hash = createHash('sha256')
    .update(migrations.map((m) => m.name + m.sql + m.seeds.map((s) => s.file + s.csv).join('')).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(os.tmpdir(), `numa-pglite-template-${hash}`);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const building = `${dir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const db = await openPglite(building);
    await migrate(db, migrations);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(building, dir);
    } catch {
      cpSync(building, dir, { recursive: true });
      rmSync(building, { recursive: true, force: true });
    }
  }
  project.provide('pgliteTemplate', dir);
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl && project.name === 'server-pg')
    project.provide('pgTemplate', await ensurePgTemplate(pgUrl, hash));
}
