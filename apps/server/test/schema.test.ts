import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants } from '@numa/contract';
import { openTestDb, testDbKind, type TestDb } from './helpers';

/**
 * The table types of src/db/schema (what Kysely checks every query against) and the migrated
 * database must say the same: the same tables, the same columns, nullable where the database allows
 * NULL, optional on insert exactly where the database has a default, and types that match.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const schemaIndex = path.resolve(here, '../src/db/schema/index.ts');

type Kind = 'number' | 'string' | 'boolean' | 'date' | 'json';
interface DeclaredColumn {
  kind: Kind | 'other';
  nullable: boolean;
  /** may be left out of an insert (Generated, a nullable column, or never insertable) */
  insertOptional: boolean;
}

/** Reads `interface DB` of src/db/schema with the TypeScript checker: table → column → facts. */
function declaredSchema(): Map<string, Map<string, DeclaredColumn>> {
  const program = ts.createProgram([schemaIndex], {
    strict: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(schemaIndex)!;
  const dbSymbol = checker
    .getExportsOfModule(checker.getSymbolAtLocation(source)!)
    .find((s) => s.name === 'DB');
  if (!dbSymbol) throw new Error('interface DB not found');
  const dbType = checker.getDeclaredTypeOfSymbol(dbSymbol);
  const nullType = checker.getNullType();
  const undefinedType = checker.getUndefinedType();
  const members = (t: ts.Type) => (t.isUnion() ? t.types : [t]);
  const kindOf = (t: ts.Type): Kind | 'other' => {
    const parts = members(t).filter((m) => m !== nullType && m !== undefinedType);
    const all = (test: (m: ts.Type) => boolean) => parts.length > 0 && parts.every(test);
    if (all((m) => checker.isTypeAssignableTo(m, checker.getNumberType()))) return 'number';
    if (all((m) => checker.isTypeAssignableTo(m, checker.getStringType()))) return 'string';
    if (all((m) => checker.isTypeAssignableTo(m, checker.getBooleanType()))) return 'boolean';
    if (all((m) => checker.typeToString(m) === 'Date')) return 'date';
    if (all((m) => (m.flags & ts.TypeFlags.Object) !== 0 || (m.flags & ts.TypeFlags.Unknown) !== 0))
      return 'json';
    return 'other';
  };
  const out = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getPropertiesOfType(dbType)) {
    const tableType = checker.getTypeOfSymbolAtLocation(table, source);
    const cols = new Map<string, DeclaredColumn>();
    for (const col of checker.getPropertiesOfType(tableType)) {
      const t = checker.getTypeOfSymbolAtLocation(col, source);
      const select = t.getProperty('__select__');
      const insert = t.getProperty('__insert__');
      const selectType = select ? checker.getTypeOfSymbolAtLocation(select, source) : t;
      const insertType = insert ? checker.getTypeOfSymbolAtLocation(insert, source) : t;
      const insertParts = members(insertType);
      cols.set(col.name, {
        kind: kindOf(selectType),
        nullable: members(selectType).includes(nullType),
        insertOptional:
          (insertType.flags & ts.TypeFlags.Never) !== 0 ||
          insertParts.includes(undefinedType) ||
          insertParts.includes(nullType),
      });
    }
    out.set(table.name, cols);
  }
  return out;
}

const kindOfPg = (dataType: string): Kind | 'other' => {
  if (['smallint', 'integer', 'bigint', 'numeric', 'double precision', 'real'].includes(dataType))
    return 'number';
  if (['text', 'character varying', 'character'].includes(dataType)) return 'string';
  if (dataType === 'boolean') return 'boolean';
  if (dataType.startsWith('timestamp') || dataType === 'date') return 'date';
  if (dataType === 'jsonb' || dataType === 'json') return 'json';
  return 'other';
};

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db?.drop();
});

describe(`the declared table types match the migrated database (${testDbKind})`, () => {
  it('has the same tables and columns, nullability, defaults and types', async () => {
    const declared = declaredSchema();
    const rows = await db.query<{
      table_name: string;
      column_name: string;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
      data_type: string;
    }>(
      `SELECT c.table_name, c.column_name, c.is_nullable, c.column_default, c.data_type
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
        ORDER BY c.table_name, c.ordinal_position`,
    );
    const actual = new Map<string, typeof rows>();
    for (const r of rows) actual.set(r.table_name, [...(actual.get(r.table_name) ?? []), r]);

    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort());
    const problems: string[] = [];
    for (const [table, cols] of actual) {
      const mine = declared.get(table)!;
      expect([...mine.keys()].sort(), table).toEqual(cols.map((c) => c.column_name).sort());
      for (const c of cols) {
        const d = mine.get(c.column_name)!;
        const where = `${table}.${c.column_name}`;
        if (d.nullable !== (c.is_nullable === 'YES'))
          problems.push(`${where}: nullable ${d.nullable} in the types, ${c.is_nullable} in the database`);
        const hasDefault = c.column_default !== null;
        // a NOT NULL column without a default must be given on insert; one with a default may be left out
        if (!d.nullable && d.insertOptional !== hasDefault)
          problems.push(
            `${where}: insert-optional ${d.insertOptional} in the types, default ${c.column_default}`,
          );
        if (d.kind !== kindOfPg(c.data_type))
          problems.push(`${where}: ${d.kind} in the types, ${c.data_type} in the database`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps the bill types table equal to the contract's billTypes", async () => {
    const rows = await db.query<{ type: number; name: string }>(
      `SELECT type, name FROM bill_types ORDER BY type`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.name, r.type]))).toEqual(constants.billTypes);
  });
});
