import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries from the contract's zod 4 schemas, read through zod 4's own introspection
 * (`schema._zod.def`). Ours rather than zod-fast-check, which supports zod 3 and fast-check 3 only
 * (docs/decisions.md, issue 9).
 *
 * `validish` draws values that pass a schema's first checks (types, lengths, patterns, enums), so a
 * mutation of them reaches deep into a handler; `malformed` draws what a hostile or broken client
 * sends: junk of every type, wrong-typed fields, missing and unknown fields, huge and strange strings.
 */
type Schema = z.ZodType;
interface Def {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  shape?: Record<string, Schema>;
  innerType?: Schema;
  in?: Schema;
  element?: Schema;
  options?: Schema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: Schema;
  keyType?: Schema;
  getter?: () => Schema;
}
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (s: Schema) => (defOf(s).checks ?? []).map((c) => c._zod.def);

/** Strings that break naive code: control and surrogate characters, injections, path tricks, numbers in disguise. */
export const nastyStrings = [
  '',
  ' ',
  '\u0000',
  '\uD800',
  '\u202E',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0x10',
  '1e400',
  '9007199254740993',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE accounts; --',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '__proto__',
  'constructor',
  '\r\nSet-Cookie: a=b',
  'a'.repeat(5_000),
];

/** Anything a JSON body or a query can carry, weighted towards the strange. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 1, ...nastyStrings),
  fc.string({ maxLength: 30, unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true}}') as unknown),
  // deep nesting
  fc.integer({ min: 50, max: 200 }).map((n) => {
    let v: unknown = 'deep';
    for (let i = 0; i < n; i++) v = [v];
    return v;
  }),
);

function stringArb(s: Schema): fc.Arbitrary<string> {
  const checks = checksOf(s);
  const min = (checks.find((c) => c.check === 'min_length')?.minimum as number | undefined) ?? 0;
  const max = (checks.find((c) => c.check === 'max_length')?.maximum as number | undefined) ?? 40;
  const pattern = checks.find((c) => c.check === 'string_format' && c.format === 'regex')?.pattern as
    RegExp | undefined;
  const format = checks.find((c) => c.check === 'string_format')?.format as string | undefined;
  if (pattern) return fc.stringMatching(pattern).map((v) => v.slice(0, Math.max(max, min)));
  if (format === 'email') return fc.emailAddress();
  if (format === 'url') return fc.webUrl();
  return fc.string({ minLength: min, maxLength: Math.min(max, 40) });
}

function numberArb(s: Schema): fc.Arbitrary<number> {
  const checks = checksOf(s);
  const int = checks.some((c) => c.check === 'number_format' && String(c.format).includes('int'));
  const lo = checks.find((c) => c.check === 'greater_than')?.value as number | undefined;
  const hi = checks.find((c) => c.check === 'less_than')?.value as number | undefined;
  const min = lo ?? -1_000_000;
  const max = hi ?? 1_000_000;
  return int
    ? fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31)) })
    : fc.double({ min, max, noNaN: true });
}

/** Values that pass (or nearly pass) a schema: the input side of pipes and transforms. */
export function validish(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(undefined);
  const d = defOf(s);
  const next = (x: Schema) => validish(x, depth + 1);
  switch (d.type) {
    case 'string':
      return stringArb(s);
    case 'number':
      return numberArb(s);
    case 'bigint':
      return fc.bigInt();
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries ?? { x: 'x' }));
    case 'literal':
      return fc.constantFrom(...(d.values ?? [null]));
    case 'null':
      return fc.constant(null);
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
      return fc.option(next(d.innerType!), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(next(d.innerType!), { nil: null, freq: 3 });
    case 'readonly':
    case 'nonoptional':
      return next(d.innerType!);
    case 'pipe':
      return next(d.in!);
    case 'lazy':
      return next(d.getter!());
    case 'array':
      return fc.array(next(d.element!), { maxLength: 4 });
    case 'union':
      return fc.oneof(...(d.options ?? []).map(next));
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), next(d.valueType!), { maxKeys: 3 });
    case 'object': {
      const shape = d.shape ?? {};
      const required = Object.keys(shape).filter(
        (k) => !['optional', 'default', 'prefault'].includes(defOf(shape[k]!).type),
      );
      return fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, next(v)])), {
        requiredKeys: required,
      });
    }
    default:
      // transform, custom, any, unknown …: whatever a client could send
      return fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean());
  }
}

/** What a broken or hostile client sends instead of a schema's input. */
export function malformed(s: Schema): fc.Arbitrary<unknown> {
  const d = defOf(s);
  if (d.type !== 'object' || !d.shape || Object.keys(d.shape).length === 0) {
    return fc.oneof(
      junk,
      validish(s).map((v) => ({ ...(typeof v === 'object' && v ? v : {}), unexpected: 'field' })),
    );
  }
  const keys = Object.keys(d.shape);
  const base = validish(s) as fc.Arbitrary<Record<string, unknown>>;
  return fc.oneof(
    // the whole input replaced by junk
    { arbitrary: junk, weight: 2 },
    // one field of the wrong type or a strange value
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...keys), junk).map(([v, k, j]) => ({ ...v, [k]: j })),
      weight: 5,
    },
    // two fields at once
    {
      arbitrary: fc
        .tuple(base, fc.constantFrom(...keys), fc.constantFrom(...keys), junk, junk)
        .map(([v, k1, k2, j1, j2]) => ({ ...v, [k1]: j1, [k2]: j2 })),
      weight: 2,
    },
    // a field missing
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...keys)).map(([v, k]) => {
        const copy = { ...v };
        delete copy[k];
        return copy;
      }),
      weight: 2,
    },
    // a field the contract does not know
    {
      arbitrary: fc
        .tuple(
          base,
          fc.oneof(
            fc.constantFrom('__proto__', 'constructor', 'accountId', 'admin', 'balance'),
            fc.string({ minLength: 1, maxLength: 8 }),
          ),
          junk,
        )
        .map(([v, k, j]) => {
          const copy: Record<string, unknown> = { ...v };
          Object.defineProperty(copy, k, { value: j, enumerable: true, writable: true, configurable: true });
          return copy;
        }),
      weight: 2,
    },
    // nearly right
    { arbitrary: base, weight: 1 },
  );
}
