// The access token never leaves the server: not in a result, an error or a log line. Whatever text goes out passes
// through here, so that even an echo of the token (in a message of the API, a URL, an argument) is masked.

export const REDACTED = '[redacted token]';

/** A function that masks every occurrence of the token (and of its Basic credentials) in a text. */
export function redactor(token: string | undefined): (text: string) => string {
  const secret = token?.trim();
  if (!secret) return (text) => text;
  const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${secret}:`)));
  return (text) => (text.includes(secret) || text.includes(basic) ? text.replaceAll(secret, REDACTED).replaceAll(basic, REDACTED) : text);
}
