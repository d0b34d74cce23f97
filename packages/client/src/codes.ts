// Error codes and the enrollment status are dot-separated and may grow new trailing tokens
// (`account.closed.<reason>`, `disconnected.<reason>`), so they are compared token by token, never as whole strings.

/** Splits a dot-separated code into its tokens (`'a.b.c'` → `['a', 'b', 'c']`). */
export function codeTokens(code: string): string[] {
  return code.split('.');
}

/**
 * True when `code` begins with all tokens of `prefix`: `account.closed.user_request` starts with `account.closed`,
 * while `account.closedx` does not.
 */
export function codeStartsWith(code: string | null | undefined, prefix: string): boolean {
  if (typeof code !== 'string' || code === '') return false;
  const have = codeTokens(code);
  const want = codeTokens(prefix);
  if (want.length > have.length) return false;
  return want.every((token, index) => have[index] === token);
}

/** The tokens after `prefix`, joined with dots; `undefined` when there are none or the code does not start with it. */
export function codeReason(code: string | null | undefined, prefix: string): string | undefined {
  if (!codeStartsWith(code, prefix)) return undefined;
  const rest = codeTokens(code as string).slice(codeTokens(prefix).length);
  return rest.length ? rest.join('.') : undefined;
}
