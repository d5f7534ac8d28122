import type { EndpointDef } from '../endpoint';
import * as all from './all';

/** Every HTTP call of both spec documents, by name (the area modules are listed once, in all.ts). */
export const endpoints = pick(all);

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** Keeps only the endpoint definitions (drops the helper schemas the area modules also export). */
function pick<T extends Record<string, unknown>>(mod: T) {
  return Object.fromEntries(
    Object.entries(mod).filter(
      ([, v]) => typeof v === 'object' && v !== null && 'path' in v && 'method' in v,
    ),
  ) as { [K in keyof T as T[K] extends EndpointDef ? K : never]: T[K] };
}
