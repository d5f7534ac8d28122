import { CompiledQuery } from 'kysely';
import type { Q } from './types';

/**
 * A hand-written statement with $1… parameters. For the migrations runner, tests and benchmarks only:
 * the product's SQL is built with Kysely in src/repositories.
 */
export async function raw<T = Record<string, unknown>>(
  q: Q,
  text: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const result = await q.executeQuery<T>(CompiledQuery.raw(text, [...params]));
  return [...result.rows];
}
