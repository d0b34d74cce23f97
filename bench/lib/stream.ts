// Reads a long JSON array response as it streams, counting bytes and transactions without
// holding the body, while the server's RSS is sampled.
import { sampleRss } from '@aggregation/test-support';

export interface StreamResult {
  items: number;
  bytes: number;
  seconds: number;
  firstByteMs: number;
  rssBefore: number;
  rssPeak: number;
  status: number;
  wellFormed: boolean;
}

const MARKER = '"id":"txn_';

export interface Pause {
  /** Stop reading once this many bytes have arrived... */
  afterBytes: number;
  /** ...for this long: a slow client. A server that honours backpressure stops producing meanwhile. */
  ms: number;
}

export async function readStream(url: string, headers: Record<string, string>, pid: number, pause?: Pause): Promise<StreamResult> {
  const sampler = sampleRss(pid, 50);
  const started = performance.now();
  const response = await fetch(url, { headers });
  const firstByteMs = performance.now() - started;
  const decoder = new TextDecoder();
  let items = 0;
  let bytes = 0;
  let carry = '';
  let head = '';
  let paused = false;
  const reader = response.body!.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const chunk = next.value;
    if (pause && !paused && bytes >= pause.afterBytes) {
      paused = true;
      await new Promise((resolve) => setTimeout(resolve, pause.ms));
    }
    bytes += chunk.length;
    const text = carry + decoder.decode(chunk, { stream: true });
    if (head.length < 1) head = text.trimStart().slice(0, 1);
    for (let at = text.indexOf(MARKER); at !== -1; at = text.indexOf(MARKER, at + MARKER.length)) items++;
    // A tail one shorter than the marker holds no whole marker, so a marker split across
    // chunks is counted exactly once.
    carry = text.slice(-(MARKER.length - 1));
  }
  const seconds = (performance.now() - started) / 1000;
  const rss = sampler.stop();
  return {
    items,
    bytes,
    seconds,
    firstByteMs,
    rssBefore: rss.start,
    rssPeak: rss.peak,
    status: response.status,
    wellFormed: head === '[' && carry.trimEnd().endsWith(']'),
  };
}
