// The store's statements on PostgreSQL are prepared: a connection parses and plans each once, then sends only its
// parameters. The number of statements kept prepared is bounded, however many distinct ones are asked for.
import assert from 'node:assert/strict';
import type pg from 'pg';
import { afterEach, beforeEach, test } from 'vitest';
import { coalescing, createPool, MAX_NAMED_STATEMENTS, PgConnection, SharedReads } from '../src/storage/postgres/connection.ts';
import { describeUnless, storeKinds } from './helpers/stores.ts';

const postgres = (await storeKinds()).find((kind) => kind.name === 'postgres')!;

describeUnless(postgres.skip, 'statements on PostgreSQL', () => {
  let pool: pg.Pool;
  let client: pg.PoolClient;
  let connection: PgConnection;

  // A connection of the store's pool, as its transactions have one: pipelined.
  beforeEach(async () => {
    pool = createPool({ url: (await postgres.location()).url!, max: 1 });
    client = await pool.connect();
    connection = new PgConnection(coalescing(client));
  });
  afterEach(async () => {
    client.release();
    await pool.end();
  });

  const preparedOnConnection = async (): Promise<string[]> =>
    (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')).rows.map((row) => row.statement);

  test('a statement asked for again is prepared once on the connection, and answers each time with its own parameters', async () => {
    const sql = 'SELECT ?::int + 1 AS value, ?::text AS label';
    assert.deepEqual(await connection.get(sql, 1, 'one'), { value: 2, label: 'one' });
    assert.deepEqual(await connection.get(sql, 41, 'two'), { value: 42, label: 'two' });
    // Asked for together on a pipelined connection: the second goes out before the first's parse is answered.
    const both = await Promise.all([connection.get(sql, 2, 'a'), connection.get(sql, 3, 'b')]);
    assert.deepEqual(both, [
      { value: 3, label: 'a' },
      { value: 4, label: 'b' },
    ]);
    assert.deepEqual(await preparedOnConnection(), ['SELECT $1::int + 1 AS value, $2::text AS label']);
  });

  test('a statement that fails to parse fails again when asked for again, rather than naming a statement that is not there', async () => {
    const sql = 'SELECT ? FROM no_such_table_here';
    await assert.rejects(connection.all(sql, 1), /no_such_table_here/);
    await assert.rejects(connection.all(sql, 1), /no_such_table_here/);
    await client.query('CREATE TEMPORARY TABLE no_such_table_here (n int)');
    assert.deepEqual(await connection.all(sql, 1), []);
  });

  test(`no more than ${MAX_NAMED_STATEMENTS} statements are kept prepared, the first asked for; those beyond still run`, async () => {
    const asked = MAX_NAMED_STATEMENTS + 20;
    for (let n = 0; n < asked; n++) {
      assert.deepEqual(await connection.get(`SELECT ?::int AS value_${n}`, n), { [`value_${n}`]: n });
    }
    const prepared = (await preparedOnConnection()).filter((text) => text.includes(' AS value_'));
    assert.ok(prepared.length > 0 && prepared.length <= MAX_NAMED_STATEMENTS, `${prepared.length} of ${asked} statements prepared`);
    const first = Array.from({ length: prepared.length }, (_, n) => `SELECT $1::int AS value_${n}`);
    assert.deepEqual(new Set(prepared), new Set(first));
  });

  test("a read whose value pg cannot send, on the statement's first use, fails alone: the statements then run on the shared reads", async () => {
    const reads = new SharedReads({ url: (await postgres.location()).url! }, 1);
    const shared = new PgConnection(reads);
    const unsendable = {
      toPostgres: () => {
        throw new Error('not sendable');
      },
    };
    try {
      const sql = 'SELECT ?::text AS shared_value';
      const other = 'SELECT ?::text AS other_value';
      assert.deepEqual(await shared.get('SELECT 1 AS one'), { one: 1 });
      // Asked for in one turn on an open connection, so they share its pipeline.
      const [answered, failed] = await Promise.allSettled([shared.get(other, 'beside'), shared.get(sql, unsendable)]);
      assert.match(String((failed as PromiseRejectedResult).reason), /not sendable/);
      assert.deepEqual((answered as PromiseFulfilledResult<unknown>).value, { other_value: 'beside' });
      for (const value of ['again', 'and again']) {
        assert.deepEqual(await shared.get(sql, value), { shared_value: value });
        assert.deepEqual(await shared.get(other, value), { other_value: value });
      }
    } finally {
      await reads.end();
    }
  });
});
