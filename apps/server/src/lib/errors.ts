import { httpStatusOf, type Lang, type Retcode } from '@numa/contract';

/**
 * A failure with a retcode from the contract. Its retmsg is written at response time in the caller's
 * language; `detail` (English, for developers: which field failed) is appended when present.
 * `retmsg`, when given, replaces the code's generic text with a more precise one (both languages),
 * e.g. the spec's own wording for an oversize identity image.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly retcode: Retcode,
    readonly data: unknown = null,
    readonly detail?: string,
    readonly retmsg?: Record<Lang, string>,
  ) {
    super(`retcode ${retcode}${detail ? `: ${detail}` : ''}`);
    this.name = 'ApiError';
    this.statusCode = httpStatusOf(retcode);
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
