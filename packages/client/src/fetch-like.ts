// The one thing every layer sends through. Its own module, below the transport, the timeout and the retries, so
// that each of them imports it and none imports another for it.

/**
 * Any fetch taking a Request: the global one, a test double, or an in-process app's `fetch` (Hono's `app.fetch`).
 * `init.signal`, when given, is the attempt's: a fetch that sends over a network passes `init` on. The same signal is
 * the Request's `signal`.
 */
export type FetchLike = (request: Request, init?: { signal?: AbortSignal }) => Response | Promise<Response>;
