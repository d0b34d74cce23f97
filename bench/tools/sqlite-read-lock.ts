// What a read of one row costs on node:sqlite in WAL mode, as the server's reader connection runs it (each
// statement on its own, so each takes and releases a read lock on the WAL index: two fcntl calls), against the
// same read inside one read transaction (the lock taken once). Usage (from the repository root):
//   node bench/tools/sqlite-read-lock.ts [reads]
// Under `strace -c -f` the fcntl count shows the two calls per statement.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const reads = Number(process.argv[2] ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'sqlite-read-lock-'));
const path = join(dir, 'reads.sqlite');
try {
  const writer = new DatabaseSync(path);
  writer.exec('PRAGMA journal_mode = WAL; CREATE TABLE rows (id TEXT PRIMARY KEY, n INTEGER, text TEXT)');
  const insert = writer.prepare('INSERT INTO rows VALUES (?, ?, ?)');
  for (let i = 0; i < 1000; i++) insert.run(`row_${i}`, i, 'x'.repeat(50));

  const reader = new DatabaseSync(path);
  const get = reader.prepare('SELECT * FROM rows WHERE id = ?');
  get.setReturnArrays(true);
  const perRead = (): number => {
    const started = performance.now();
    for (let i = 0; i < reads; i++) get.get(`row_${i % 1000}`);
    return ((performance.now() - started) * 1000) / reads;
  };
  perRead(); // warm-up
  const alone = perRead();
  reader.exec('BEGIN');
  const inTransaction = perRead();
  reader.exec('COMMIT');
  console.log(`${reads} reads of one row by primary key`);
  console.log(`  each statement on its own (the server's reads): ${alone.toFixed(2)} µs`);
  console.log(`  inside one read transaction:                    ${inTransaction.toFixed(2)} µs`);
  reader.close();
  writer.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
