import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, readMigrations } from '../src/db/migrate';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, pgliteExtensions } from '../src/db/pglite';
import { ensurePgTemplate } from './pg-template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The same template as one uncompressed tar file (PGlite's `dumpDataDir`), for in-memory copies. */
    pgliteTarball: string;
    /** The migrated PostgreSQL template database (test/pg-template.ts), with TEST_DATABASE_URL. */
    pgTemplate: string;
  }
}

/**
 * PGlite's first start (initdb) takes seconds; reopening a data folder takes a fraction of one. So one
 * migrated template is made per set of migrations, and each suite opens its own copy: in memory,
 * loaded from the template's tarball (test/helpers.ts openTestDb), or, for the suites whose other
 * processes open the same database, a copy of the folder on disk.
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
  const tarball = `${dir}.tar`;
  if (!existsSync(tarball)) {
    // dumped from a copy: opening the template itself would write to it while another run may be
    // copying it
    const copy = `${dir}.dumping-${process.pid}`;
    cpSync(dir, copy, { recursive: true });
    const pg = await PGlite.create({ dataDir: copy, extensions: pgliteExtensions });
    const tar = await pg.dumpDataDir('none');
    await pg.close();
    rmSync(copy, { recursive: true, force: true });
    const writing = `${tarball}.${process.pid}`;
    writeFileSync(writing, Buffer.from(await tar.arrayBuffer()));
    renameSync(writing, tarball);
  }
  project.provide('pgliteTemplate', dir);
  project.provide('pgliteTarball', tarball);
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl && project.name === 'server-pg')
    project.provide('pgTemplate', await ensurePgTemplate(pgUrl, hash));
}
