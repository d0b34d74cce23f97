// The pool and the connection the shared repositories run on: `?` placeholders become `$n`,
// BIGINT columns (money in cents, times in epoch ms) come back as numbers, unique violations
// become UniqueViolation, and many rows go in as one JSON parameter per batch.
import pg from 'pg';
import { identifier, type SqlConnection } from '../sql/repos.ts';
import { StoreUnavailable, UniqueViolation } from '../store.ts';

/** BIGINT as a number: cents and epoch milliseconds stay far below 2^53; refuse anything that does not. */
function parseBigint(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} is beyond a safe integer`);
  return value;
}

// Per pool, not pg's global parsers: other users of `pg` in the process keep theirs.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? parseBigint : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

const CONNECT_TIMEOUT_MS = 5_000;

export interface PoolOptions {
  url: string;
  /** Connections in the pool (default 10). */
  max?: number;
  /** How long the pool's connections may take to be made (default 5 s). */
  connectTimeoutMs?: number;
}

/** Where a connection goes and how long it may take to be made: every connection of the store takes both. */
export type ConnectionOptions = Omit<PoolOptions, 'max'>;

/** The part of a connection's config every connection of the store shares: the pool's, the shared reads', the change feed's. */
export function connectionTarget({ url, connectTimeoutMs = CONNECT_TIMEOUT_MS }: ConnectionOptions): pg.ClientConfig {
  return {
    connectionString: url,
    // An unreachable server fails a request after this long rather than holding it.
    connectionTimeoutMillis: connectTimeoutMs,
  };
}

/** How the pool's and the shared reads' connections are made. */
function clientConfig(options: ConnectionOptions): pg.ClientConfig {
  return {
    ...connectionTarget(options),
    // pg's pipeline mode: statements asked for together go out without waiting for each answer (a payment's statements
    // in fewer round trips). The fault suite's memory test holds what the server keeps to its bound with it.
    pipeline: true,
    types,
    application_name: 'aggregation-server',
  };
}

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(options), max: options.max ?? 10 });
  // An idle client that loses its connection emits here; without a listener the process would exit.
  pool.on('error', () => undefined);
  // So does a client in use (a transaction between two statements) when the database goes away: its next
  // statement fails instead, the transaction answers an error, and the broken client leaves the pool.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** The URL without its password, for logs. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

const SQLSTATE_UNIQUE_VIOLATION = '23505';
/** Serialization failure and deadlock: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);

export const isRetryable = (error: unknown): boolean => RETRYABLE.has((error as { code?: string }).code ?? '');

/** Socket failures reaching the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server that is going away or cannot take the connection: class 08, shutdowns, too many connections. */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;
/** What pg says, without a code, of a connection it lost or could not make in time. */
const LOST_CONNECTION = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection ended/i;

function isUnavailable(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(isUnavailable);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  return error instanceof Error && LOST_CONNECTION.test(error.message);
}

/** `error` as StoreUnavailable when it says the server cannot be reached; otherwise unchanged. */
export function storeError(error: unknown): unknown {
  if (error instanceof StoreUnavailable || !isUnavailable(error)) return error;
  return new StoreUnavailable(`PostgreSQL is unavailable: ${(error as Error).message}`, { cause: error });
}

/**
 * Distinct statements named so that each connection parses and plans them once. The shared statements are a few dozen;
 * the bound keeps a statement made from data (a column list) from growing every connection's store of them.
 */
export const MAX_NAMED_STATEMENTS = 500;
const prepared = new Map<string, pg.QueryConfig>();

/**
 * The statement pg runs for `sql`: `?` become `$1, $2, ...` (the shared statements have no `?` inside literals), and
 * it is named, so that after a connection's first use of it only its parameters go out and PostgreSQL plans it
 * from its cache.
 */
function statementOf(sql: string): pg.QueryConfig {
  let statement = prepared.get(sql);
  if (statement === undefined) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    if (prepared.size >= MAX_NAMED_STATEMENTS) return { text };
    statement = { text, name: `s${prepared.size}` };
    prepared.set(sql, statement);
  }
  return statement;
}

/** What runs a statement: a transaction's client, or the store's shared reads. */
export interface Statements {
  query(statement: pg.QueryConfig): Promise<pg.QueryResult>;
}

type Corkable = { connection?: { stream?: { cork?(): void; uncork?(): void } } };

/**
 * The client's statements asked for in one turn of the event loop go out in one write: pg writes each on its own,
 * and on a pipelined connection several are asked for at once.
 */
export function coalescing(client: pg.Client | pg.PoolClient): Statements {
  let corked = false;
  return {
    query(statement) {
      const stream = (client as Corkable).connection?.stream;
      if (!corked && stream?.cork && stream.uncork) {
        stream.cork();
        corked = true;
        process.nextTick(() => {
          corked = false;
          stream.uncork!();
        });
      }
      return client.query(statement);
    },
  };
}

/**
 * Reads outside transactions, from every request, on a few pipelined connections of their own: the reads asked for
 * in one turn of the event loop share one connection, one write and the reads of their answers, instead of a pooled
 * connection, a write and a read each. A connection that fails is made again by the next read.
 */
export class SharedReads implements Statements {
  private readonly config: pg.ClientConfig;
  private readonly connections: (Promise<{ client: pg.Client; statements: Statements }> | undefined)[];
  private turn = 0;
  private turnTaken = false;
  private closed = false;

  constructor(options: ConnectionOptions, count = 2) {
    this.config = clientConfig(options);
    this.connections = new Array(count).fill(undefined);
  }

  async query(statement: pg.QueryConfig): Promise<pg.QueryResult> {
    if (this.closed) throw new Error('store is closed');
    return (await this.connection()).statements.query(statement);
  }

  async end(): Promise<void> {
    this.closed = true;
    const open = this.connections.map((connection) => connection?.catch(() => undefined));
    this.connections.fill(undefined);
    await Promise.all(open.map(async (connection) => (await connection)?.client.end().catch(() => undefined)));
  }

  /** This turn's connection: the next one in turn, the same for every read of the turn. */
  private connection(): Promise<{ client: pg.Client; statements: Statements }> {
    if (!this.turnTaken) {
      this.turnTaken = true;
      this.turn = (this.turn + 1) % this.connections.length;
      process.nextTick(() => {
        this.turnTaken = false;
      });
    }
    const index = this.turn;
    const existing = this.connections[index];
    if (existing) return existing;
    const client = new pg.Client(this.config);
    const opening = client.connect().then(
      () => ({ client, statements: coalescing(client) }),
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    const forget = () => {
      if (this.connections[index] === opening) this.connections[index] = undefined;
    };
    // A connection lost between reads fails the reads in flight (they answer 503) and is made again by the next.
    client.on('error', forget);
    client.on('end', forget);
    this.connections[index] = opening;
    return opening;
  }
}

/** Rows per INSERT of insertMany: large enough to save round trips, small enough to keep messages a few MB. */
const BATCH_ROWS = 5_000;

export class PgConnection implements SqlConnection {
  readonly forUpdate = ' FOR UPDATE';
  readonly forUpdateSkipLocked = ' FOR UPDATE SKIP LOCKED';
  readonly inList = '= ANY(?::text[])';
  readonly inIntegerList = '= ANY(?::bigint[])';
  readonly limit = 'LIMIT ?';
  list<T extends string | number>(values: readonly T[]): readonly T[] {
    return values;
  }
  /** Rows written by insertMany, per table (the store refreshes the planner's statistics after large ones). */
  readonly bulkInserted = new Map<string, number>();
  /** Rows inserted, updated or deleted so far (a transaction that changed none counts no revision). */
  changedRows = 0;
  /** Set once the transaction's COMMIT is asked for: a statement asked for after it would run outside it, so it fails. */
  ended = false;
  /**
   * The first statement pg failed without sending it (a value it cannot send, a connection that is gone). pg goes
   * on to send the statements after it, and says so only on the next tick.
   */
  unsent: unknown;
  private readonly statements: Statements;
  /** Awaited before the first query (the store's shared reads wait for the migrations). */
  private readonly before: (() => Promise<void>) | undefined;

  constructor(statements: Statements, before?: () => Promise<void>) {
    this.statements = statements;
    this.before = before;
  }

  /** Runs `sql` as it is (BEGIN, COMMIT), in the same writes as the statements around it. */
  command(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return this.statements.query({ text: sql, values: params });
  }

  private async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    if (this.ended) throw new Error('statement asked for after the transaction ended');
    if (this.before) await this.before();
    try {
      const result = await this.statements.query({ ...statementOf(sql), values: params });
      if (result.command !== 'SELECT') this.changedRows += result.rowCount ?? 0;
      return result.rows as T[];
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) this.unsent ??= error;
      if ((error as { code?: string }).code === SQLSTATE_UNIQUE_VIOLATION) {
        throw new UniqueViolation((error as Error).message);
      }
      throw storeError(error);
    }
  }

  all<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return this.query<T>(sql, params);
  }

  async get<T>(sql: string, ...params: unknown[]): Promise<T | undefined> {
    return (await this.query<T>(sql, params))[0];
  }

  /** Row by row: a round trip costs more than the rows, and an aggregate keeps its input's order only by custom. */
  async values<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return (await this.query<{ value: T }>(sql, params)).map((row) => row.value);
  }

  async run(sql: string, ...params: unknown[]): Promise<void> {
    await this.query(sql, params);
  }

  /**
   * A batch is one parameter: the rows as JSON, turned into the table's row type by
   * json_populate_recordset (each column converted by its declared type). A million rows
   * (the `history.<n>` users) are 200 statements, not a million. The columns are the first row's:
   * the others keep their defaults.
   */
  async insertMany(table: string, rows: readonly object[]): Promise<void> {
    const first = rows[0];
    if (!first) return;
    const name = identifier(table);
    const columns = Object.keys(first).map(identifier).join(', ');
    this.bulkInserted.set(name, (this.bulkInserted.get(name) ?? 0) + rows.length);
    for (let start = 0; start < rows.length; start += BATCH_ROWS) {
      const batch = rows.slice(start, start + BATCH_ROWS);
      await this.query(`INSERT INTO ${name} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${name}, ?::json)`, [
        JSON.stringify(batch),
      ]);
    }
  }
}
