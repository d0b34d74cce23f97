// Rows of node:sqlite as plain objects. node:sqlite builds each row as a dictionary-mode object with a null
// prototype: slow to build, and slow to read for everything after it (a page's presenter and serializer read
// every column of a hundred rows). The statement returns arrays instead, and a function compiled once per
// statement from its column names turns each into an object literal: one fast shape for all of its rows.
import type { SQLInputValue, StatementSync } from 'node:sqlite';

/** Stored as 0/1, read as booleans. */
const BOOLEAN_COLUMNS = new Set(['disconnect_on_use', 'payments_supported', 'post_replaces', 'mfa_payments']);

/** Names that can be written as an object literal's key as they are (`__proto__` would set the prototype). */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Build = (values: unknown[]) => object;

export interface RowReader {
  all(params: SQLInputValue[]): object[];
  get(params: SQLInputValue[]): object | undefined;
}

export function rowReader(statement: StatementSync): RowReader {
  statement.setReturnArrays(true);
  const build = rowBuilder(statement.columns().map((column) => column.name));
  return {
    all: (params) => (statement.all(...params) as unknown as unknown[][]).map(build),
    get: (params) => {
      const values = statement.get(...params) as unknown as unknown[] | undefined;
      return values && build(values);
    },
  };
}

const columnValue = (name: string, index: number) => (BOOLEAN_COLUMNS.has(name) ? `v[${index}] === 1` : `v[${index}]`);

export function rowBuilder(names: readonly string[]): Build {
  if (names.every((name) => PLAIN_NAME.test(name) && name !== '__proto__')) {
    // Later columns of the same name win, as they do in node:sqlite's own row objects.
    return new Function('v', `return { ${names.map((name, index) => `${name}: ${columnValue(name, index)}`).join(', ')} };`) as Build;
  }
  return (values) => {
    const row: Record<string, unknown> = {};
    names.forEach((name, index) => {
      Object.defineProperty(row, name, {
        value: BOOLEAN_COLUMNS.has(name) ? values[index] === 1 : values[index],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return row;
  };
}
