// The server process's own V8 settings, so that it fits a small container (256 MB): V8 otherwise sizes its young
// generation from the machine's memory (up to 64 MB a semi-space, two of them, on a large machine), and under a
// read load it grows to that size with garbage. The `aggregation-sandbox` bin, which `npm start` runs, starts the
// server with these flags: a process started without them replaces itself (process.execve: same pid, same
// standard streams) with the same command line and the flags added. A flag the operator gave already, on the command
// line or in NODE_OPTIONS, is left as given. Code that embeds the server (createApp, startServer) keeps its own
// process's settings; where process.execve is missing (Windows), the bin runs on Node's defaults.
export const SERVER_V8_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=128'] as const;

const flagName = (flag: string) => flag.split('=', 1)[0]!;

/** The flags of `flags` whose name appears neither in `execArgv` nor in `nodeOptions`. */
export function missingFlags(flags: readonly string[], execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter(Boolean).map(flagName));
  return flags.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Replaces this process with the same command line plus the server's flags it lacks; returns when none is missing
 * or the platform cannot replace a process.
 */
export function relaunchWithServerFlags(): void {
  const missing = missingFlags(SERVER_V8_FLAGS, process.execArgv, process.env.NODE_OPTIONS);
  if (missing.length === 0 || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...missing, ...process.argv.slice(1)], process.env);
}
