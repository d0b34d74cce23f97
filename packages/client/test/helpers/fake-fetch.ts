// A fetch double: records what was sent and answers from a handler, so client behaviour is tested without a network.
export type Recorded = { method: string; url: URL; headers: Headers; body: string };
export type Handler = (request: Recorded, index: number) => Response | Promise<Response>;

export function fakeFetch(handler: Handler) {
  const calls: Recorded[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const recorded: Recorded = {
      method: request.method,
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: request.body ? await request.text() : '',
    };
    calls.push(recorded);
    return handler(recorded, calls.length - 1);
  };
  return { fetch, calls };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function apiError(status: number, code: string, message = code, headers: Record<string, string> = {}, params?: Record<string, string[]>) {
  return json({ error: { code, message, ...(params ? { params } : {}) } }, status, headers);
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep() {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { sleep, waits };
}
