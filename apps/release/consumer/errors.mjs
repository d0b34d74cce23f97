// The errors and retries of the installed client against the sandbox server: a 404 thrown as NotFoundError, the
// first 429 of a `rate_limited.1` user thrown as RateLimitError when the call allows no retry, and the same 429 of
// another such user retried through by default.
import { ApiError, createClient, NotFoundError, RateLimitError } from '@aggregation/client';

const { baseUrl, tokens } = JSON.parse(process.env.CONSUMER_INPUT);
const outcome = (promise) =>
  promise.then(
    (value) => ({ resolved: Array.isArray(value) ? value.length : typeof value }),
    (error) => ({
      name: error.name,
      status: error.status,
      apiError: error instanceof ApiError,
      notFound: error instanceof NotFoundError,
      rateLimit: error instanceof RateLimitError,
    }),
  );

console.log(
  JSON.stringify({
    notFound: await outcome(createClient({ token: tokens.healthy, baseUrl }).accounts.get('acc_missing')),
    noRetry: await outcome(createClient({ token: tokens.limitedOnce, baseUrl }).accounts.list({ maxRetries: 0 })),
    retried: await outcome(createClient({ token: tokens.limitedRetried, baseUrl }).accounts.list()),
  }),
);
