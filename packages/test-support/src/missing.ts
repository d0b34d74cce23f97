// Tests and generators that need something a machine may lack (Chromium, PostgreSQL, Python, Go, curl, a built
// bundle). On a developer's machine they skip, saying why; under CI=true, where the project installs everything it
// needs, a missing piece is a failure, never a silent skip.

/**
 * False when nothing is missing. Otherwise prints `# skipping <what>: <missing>` (vitest shows it with the file's
 * output, since its skip takes no reason) and returns the reason, to pass to `describe.skipIf` or `it.skipIf`;
 * under CI=true it throws instead.
 */
export function skipWhenMissing(what: string, missing: string | false | undefined, env: NodeJS.ProcessEnv = process.env): string | false {
  if (!missing) return false;
  if (env.CI === 'true') throw new Error(`${what}: ${missing} (required when CI=true)`);
  console.log(`# skipping ${what}: ${missing}`);
  return missing;
}
