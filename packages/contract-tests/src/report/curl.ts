// A `curl` line that sends a request again, quoted for a POSIX shell.

export type RequestRecord = { method: string; url: string; headers?: Record<string, string>; body?: string };

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Headers are sent as recorded, except those curl sets itself. */
const implicit = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'user-agent']);

/** `tokenVariable`: the request was sent with a token kept secret; the line reads it from that variable instead. */
export function curlOf(request: RequestRecord, tokenVariable?: string): string {
  const parts = ['curl', '-i', '-X', request.method.toUpperCase()];
  if (tokenVariable) parts.push('-u', `"$${tokenVariable}:"`);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (implicit.has(name.toLowerCase()) || (tokenVariable && name.toLowerCase() === 'authorization')) continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined && request.body !== '') parts.push('--data-raw', quote(request.body));
  parts.push(quote(request.url));
  return parts.join(' ');
}

/** The start of an answer's body, as text. */
export function excerpt(body: string, limit = 1000): string {
  return body.length > limit ? `${body.slice(0, limit)}… (${body.length} characters)` : body;
}
