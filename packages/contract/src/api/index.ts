import type { EndpointDef } from '../endpoint';
import * as auth from './auth';
import * as chats from './chats';
import * as contacts from './contacts';
import * as verify from './verify';
import * as profile from './profile';
import * as payments from './payments';
import * as history from './history';
import * as rates from './rates';
import * as invite from './invite';
import * as numbers from './numbers';
import * as codes from './codes';
import * as templates from './templates';
import * as scheduled from './scheduled';

/** Every HTTP call of both spec documents, by name. */
export const endpoints = {
  ...pick(auth),
  ...pick(chats),
  ...pick(contacts),
  ...pick(verify),
  ...pick(profile),
  ...pick(payments),
  ...pick(history),
  ...pick(rates),
  ...pick(invite),
  ...pick(numbers),
  ...pick(codes),
  ...pick(templates),
  ...pick(scheduled),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** Keeps only the endpoint definitions of an area module (drops helper schemas it also exports). */
function pick<T extends Record<string, unknown>>(mod: T) {
  return Object.fromEntries(
    Object.entries(mod).filter(
      ([, v]) => typeof v === 'object' && v !== null && 'path' in v && 'method' in v,
    ),
  ) as { [K in keyof T as T[K] extends EndpointDef ? K : never]: T[K] };
}
