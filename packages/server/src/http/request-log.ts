// The request log as it happens, for `GET /sandbox/logs` (`aggregation logs tail`): each finished request is
// handed to the streams of its scope as one NDJSON line. Nothing is kept when no one listens, and each stream's
// queue is bounded: a reader that falls behind loses lines (and is told how many) instead of growing the server.
import type { EnrollmentRow } from '../storage/store.ts';

export interface RequestLogEntry {
  /** Real time the request finished, ISO 8601. */
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
  /** Answered by the read cache without running the handler. */
  replayed: boolean;
}

/**
 * Whose requests a stream shows: the requests made with the listener's enrollment's tokens. The one place that
 * decides it, so that scoping by application replaces it here.
 */
export const requestLogScope = (enrollment: Pick<EnrollmentRow, 'id'> | undefined): string | undefined => enrollment?.id;

/** The request log's stream (`GET /sandbox/logs`), which is never logged itself. */
export const LOGS_PATH = '/sandbox/logs';

/** Lines a stream may hold for a slow reader before it drops new ones. */
export const STREAM_QUEUE_LINES = 1000;

interface Listener {
  controller: ReadableStreamDefaultController<Uint8Array>;
  dropped: number;
  timer?: NodeJS.Timeout;
}

const encoder = new TextEncoder();
const line = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value)}\n`);

export class RequestLog {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Whether any stream is open: the request path skips building entries otherwise. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  record(scope: string | undefined, entry: RequestLogEntry): void {
    if (scope === undefined) return;
    const listeners = this.listeners.get(scope);
    if (!listeners) return;
    const bytes = line(entry);
    for (const listener of listeners) {
      if ((listener.controller.desiredSize ?? 0) <= 0) {
        listener.dropped += 1;
        continue;
      }
      if (listener.dropped > 0) {
        listener.controller.enqueue(line({ dropped: listener.dropped }));
        listener.dropped = 0;
      }
      listener.controller.enqueue(bytes);
    }
  }

  /**
   * An NDJSON stream of the scope's requests from now on; it ends when the reader cancels, the log closes or,
   * when given, after `timeoutMs`.
   */
  stream(scope: string, timeoutMs?: number): ReadableStream<Uint8Array> {
    let listener: Listener | undefined;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          listener = { controller, dropped: 0 };
          const set = this.listeners.get(scope) ?? new Set<Listener>();
          set.add(listener);
          this.listeners.set(scope, set);
          if (timeoutMs) listener.timer = setTimeout(() => this.end(scope, listener!), timeoutMs);
        },
        cancel: () => this.remove(scope, listener!),
      },
      new CountQueuingStrategy({ highWaterMark: STREAM_QUEUE_LINES }),
    );
  }

  private remove(scope: string, listener: Listener): void {
    clearTimeout(listener.timer);
    const set = this.listeners.get(scope);
    if (!set) return;
    set.delete(listener);
    if (set.size === 0) this.listeners.delete(scope);
  }

  private end(scope: string, listener: Listener): void {
    this.remove(scope, listener);
    listener.controller.close();
  }

  /** Ends every open stream (the server is closing: they would hold it open). */
  close(): void {
    for (const [scope, set] of [...this.listeners]) {
      for (const listener of [...set]) this.end(scope, listener);
    }
  }
}
