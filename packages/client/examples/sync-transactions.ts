import { createClient, type SyncState, type Transaction } from '@aggregation/client';

const client = createClient({ token: process.env.AGGREGATION_TOKEN!, baseUrl: process.env.AGGREGATION_BASE_URL });
const stored = new Map<string, Transaction>(); // your database, keyed by transaction id
let state: SyncState | undefined; // persisted between runs; undefined on the first sync

// Re-reads 10 days before the last sync, so pending transactions whose date moved on posting are caught.
const result = await client.transactions.sync(process.env.ACCOUNT_ID!, { state, known: stored });
for (const txn of [...result.inserted, ...result.updated]) stored.set(txn.id, txn);
for (const txn of result.removed) stored.delete(txn.id); // pending, then posted under a new id
state = result.state;
