/**
 * Reads kept in memory for `ttlMs` per key (0: never kept). The read itself is kept from the moment
 * it starts, not only its answer: callers asking for one key at once (an account's events in one
 * burst) share one read instead of each missing. A failed read is dropped, so the next caller reads
 * again. At most `max` keys; past that everything is dropped (a cache, never the record).
 */
export function keptReads<K, V>(ttlMs: number, max = 50_000) {
  const kept = new Map<K, { value: Promise<V>; at: number }>();
  return {
    get(key: K, read: () => Promise<V>): Promise<V> {
      if (ttlMs <= 0) return read();
      const now = Date.now();
      const hit = kept.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = read();
      if (kept.size >= max) kept.clear();
      const entry = { value, at: now };
      kept.set(key, entry);
      value.catch(() => kept.get(key) === entry && kept.delete(key));
      return value;
    },
    /** Forgets a key (what it reads changed here). */
    delete(key: K): void {
      kept.delete(key);
    },
  };
}
