import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint.
 * - `session`: a valid `auth-token` is required (the default for `/web`).
 * - `optional`: works anonymously (front page) and with a session.
 * - `public`: never looks at the token (sign-in, captcha, static lists).
 */
export type Access = 'session' | 'optional' | 'public';

export interface EndpointDef<
  M extends HttpMethod = HttpMethod,
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  A extends Access = Access,
> {
  /** The spec's name of the call, e.g. `login`. */
  readonly name: string;
  readonly method: M;
  /** Full path, always under `/web`. */
  readonly path: `/web/${string}`;
  readonly access: A;
  /**
   * The call's own parameters (query for GET/DELETE, JSON body for POST/PUT), without the common
   * query (`t`, `webVersion`, `languagecode`) and without the body's `platform`: those are read by the
   * server core on every call. Strict: unknown fields are refused.
   */
  readonly input: I;
  /** The envelope's `data`. */
  readonly output: O;
  /** The body is multipart/form-data (files); `input` then describes the text fields. */
  readonly multipart?: boolean;
  /** One line on what the call does. */
  readonly summary: string;
}

export const defineEndpoint = <
  M extends HttpMethod,
  I extends z.ZodType,
  O extends z.ZodType,
  A extends Access,
>(
  def: EndpointDef<M, I, O, A>,
): EndpointDef<M, I, O, A> => def;

export type InputOf<E extends EndpointDef> = z.input<E['input']>;
export type ParsedInputOf<E extends EndpointDef> = z.output<E['input']>;
export type OutputOf<E extends EndpointDef> = z.output<E['output']>;
export type RawOutputOf<E extends EndpointDef> = z.input<E['output']>;
