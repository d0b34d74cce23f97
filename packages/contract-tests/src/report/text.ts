// How a failure reads in junit.xml, summary.md and the terminal: the same words everywhere.
import type { Failure } from './types.ts';

export function failureText(failure: Failure): string {
  const lines = [failure.message];
  if (failure.rule) lines.push(`Rule: ${failure.rule}`);
  if (failure.request) {
    lines.push(`Request: ${failure.request.method.toUpperCase()} ${failure.request.url}`);
    if (failure.request.body) lines.push(`Request body: ${failure.request.body}`);
  }
  if (failure.response) {
    lines.push(`Answer: ${failure.response.status}${failure.response.contentType ? ` (${failure.response.contentType})` : ''}`);
    if (failure.response.excerpt) lines.push(`Answer body: ${failure.response.excerpt}`);
  }
  if (failure.curl) lines.push(`Reproduce: ${failure.curl}`);
  if (failure.seed !== undefined) lines.push(`Seed: ${failure.seed} (replay with --seed ${failure.seed})`);
  return lines.join('\n');
}

/** Characters XML 1.0 cannot carry (a fuzzer's NUL bytes, lone surrogates), written as escapes instead. */
export function xmlSafe(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 cannot carry are what it finds.
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
