// One request outside the load generator: to check a target answers as expected before loading
// it, and to record the bytes the bare server replays.

/** A response as the server sent it: what the bare targets replay. */
export interface RecordedResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

// Per connection or per response: a replaying target sets its own.
const notReplayed = new Set(['transfer-encoding', 'connection', 'keep-alive', 'date', 'content-length']);

/** The recorded headers a target sends again with the recorded body. */
export function replayedHeaders(recorded: RecordedResponse): [string, string][] {
  return recorded.headers.filter(([name]) => !notReplayed.has(name));
}

export async function record(url: string, init: RequestInit = {}): Promise<RecordedResponse> {
  const response = await fetch(url, init);
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: [...response.headers.entries()], body };
}

export async function expectStatus(url: string, init: RequestInit, status: number): Promise<RecordedResponse> {
  const recorded = await record(url, init);
  if (recorded.status !== status) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: expected ${status}, got ${recorded.status}: ${Buffer.from(recorded.body).toString().slice(0, 500)}`,
    );
  }
  return recorded;
}

/**
 * Sends `count` requests with `concurrency` in flight; returns how many got 2xx and how long it took. `init` may be a
 * function, for a new body per request.
 */
export async function sendMany(
  url: string,
  init: RequestInit | (() => RequestInit),
  count: number,
  concurrency: number,
): Promise<{ ok: number; seconds: number }> {
  let next = 0;
  let ok = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const response = await fetch(url, typeof init === 'function' ? init() : init);
      await response.arrayBuffer();
      if (response.ok) ok++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ok, seconds: (performance.now() - started) / 1000 };
}
