// The baseline of durable writes: a bare loop of single-row INSERTs, each its own committed
// transaction, into the same database file, with the pragmas the server's SQLite store uses
// (WAL, synchronous=FULL, foreign keys on; see packages/server/src/storage/sqlite/index.ts).

import { createHistogram } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { childArgs, serveParent } from '../lib/worker-side.ts';

export interface InsertLoopArgs {
  databasePath: string;
}

export interface InsertLoopResult {
  inserts: number;
  seconds: number;
  p50: number;
  p99: number;
}

const { databasePath } = childArgs<InsertLoopArgs>();
const db = new DatabaseSync(databasePath, { timeout: 5000 });
db.exec('PRAGMA foreign_keys = ON');
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');
// A table shaped like a payment row, kept apart from the server's own tables.
db.exec(`CREATE TABLE IF NOT EXISTS bench_inserts (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  amount TEXT NOT NULL,
  amount_cents INTEGER NOT NULL,
  memo TEXT NOT NULL,
  reference TEXT NOT NULL,
  date TEXT NOT NULL,
  payee_scheme TEXT NOT NULL,
  payee_type TEXT NOT NULL,
  payee_name TEXT NOT NULL,
  payee_address TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
)`);
const insert = db.prepare(`INSERT INTO bench_inserts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
let next = 0;

serveParent(
  { pid: process.pid },
  {
    run: (payload) => {
      const { seconds } = payload as { seconds: number };
      const latency = createHistogram();
      const started = performance.now();
      const until = started + seconds * 1000;
      let inserts = 0;
      for (let now = started; now < until; ) {
        const id = `bench_${process.pid}_${next++}`;
        insert.run(id, 'acc_bench', '0.01', 1, 'bench', 'ref', '2020-10-12', 'zelle', 'person', 'Bench', 'bench@example.com', `txn_${id}`, Date.now());
        const done = performance.now();
        latency.record(Math.max(1, Math.round((done - now) * 1000)));
        now = done;
        inserts++;
      }
      return {
        inserts,
        seconds: (performance.now() - started) / 1000,
        p50: latency.percentile(50) / 1000,
        p99: latency.percentile(99) / 1000,
      } satisfies InsertLoopResult;
    },
  },
  () => db.close(),
);
