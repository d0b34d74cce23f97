// Long-running commands stop on Ctrl-C or SIGTERM, and clean up before they exit.

/** Resolves at the first SIGINT or SIGTERM; later ones exit at once. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const once = (signal: NodeJS.Signals) => {
      process.off('SIGINT', once);
      process.off('SIGTERM', once);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', once);
    process.on('SIGTERM', once);
  });
}
