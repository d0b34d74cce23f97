// One request outside the load generator: to check a target answers as expected before loading
// it, and to record the bytes the bare server replays.
import type { RecordedResponse } from '../targets/bare-http.ts';

export async function record(url: string, init: RequestInit = {}): Promise<RecordedResponse> {
  const response = await fetch(url, init);
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: [...response.headers.entries()], body };
}

export async function expectStatus(url: string, init: RequestInit, status: number): Promise<RecordedResponse> {
  const recorded = await record(url, init);
  if (recorded.status !== status) {
    throw new Error(`${init.method ?? 'GET'} ${url}: expected ${status}, got ${recorded.status}: ${Buffer.from(recorded.body).toString().slice(0, 500)}`);
  }
  return recorded;
}

/** Sends `count` requests with `concurrency` in flight; returns how many got 2xx and how long it took. */
export async function sendMany(url: string, init: RequestInit, count: number, concurrency: number): Promise<{ ok: number; seconds: number }> {
  let next = 0;
  let ok = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const response = await fetch(url, init);
      await response.arrayBuffer();
      if (response.ok) ok++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ok, seconds: (performance.now() - started) / 1000 };
}
