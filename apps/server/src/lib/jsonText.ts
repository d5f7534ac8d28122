import type { Encoded } from './compression';

/**
 * An answer's `data` already serialized as JSON text, typed by what it holds. A read that lists
 * thousands of rows builds its JSON in the database (one text field), and `route()` puts the text in
 * the envelope as it is: no parse, per-row mapping or stringify in the server's one thread (issue 13
 * §2; on the embedded PGlite, decoding rows field by field cost more than the query). Where answers
 * are checked against the contract (tests), `route()` parses the text and checks it like any other.
 */
export class JsonText<T> {
  declare private readonly _of: T;
  /**
   * @param encoded where the answer's compressed bodies are kept when the text is kept (a built
   *   list or page under its validator): compressed once per encoding, not at every request.
   */
  constructor(
    readonly text: string,
    readonly encoded?: Encoded,
  ) {}
}

/** `{"key": <json>, …}` of fields whose values are JSON text already (numbers via JSON.stringify). */
export function jsonObject<T>(fields: Record<string, string>): JsonText<T> {
  return new JsonText<T>(
    `{${Object.entries(fields)
      .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
      .join(',')}}`,
  );
}
