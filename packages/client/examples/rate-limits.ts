import { createClient, NotFoundError, RateLimitError } from '@aggregation/client';

// Try it with the sandbox user `rate_limited.2`: its token's first two requests answer 429 with Retry-After: 1.
const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  timeout: 10_000, // ms per attempt
  maxRetries: 3, // reads, deletes and payments (they carry an Idempotency-Key)
  logLevel: 'info', // or AGGREGATION_LOG=info; a line per call and per retry, never the token
});

try {
  await client.accounts.list({ maxRetries: 0 }); // sent once
} catch (error) {
  if (!(error instanceof RateLimitError)) throw error;
  console.log(`429 ${error.code}: retry in ${error.retryAfter} s`);
}
const accounts = await client.accounts.list(); // waits for Retry-After, then is served
console.log(accounts.length, 'accounts');

try {
  await client.accounts.get('acc_missing', { timeout: 2_000 });
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log(`404 ${error.code} (request id ${error.requestId})`);
}
