import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaStorePort } from './port';

/** Files under DATA_DIR/media, sharded by the first two characters of the key. */
export class LocalMediaStore implements MediaStorePort {
  readonly name = 'local';
  constructor(private readonly root: string) {}

  private file(key: string) {
    if (!/^[A-Za-z0-9_-]{8,80}$/.test(key)) throw new Error(`bad media key ${key}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, bytes: Uint8Array) {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    // write then rename: a reader never sees half a file
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  }

  async get(key: string) {
    try {
      return await readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string) {
    await rm(this.file(key), { force: true });
  }
}
