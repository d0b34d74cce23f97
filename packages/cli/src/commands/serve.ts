// `aggregation serve`: the sandbox server on the embedded database, exactly what `npm start` runs. The flags are
// the server's settings (packages/server/README.md), given as flags instead of the environment.
import type { Command } from 'commander';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the sandbox server (what `npm start` runs) on the embedded database')
    .option('--port <port>', 'port to listen on (0: any free port)', process.env.PORT ?? '3000')
    .option('--host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
    .option('--database <path>', 'SQLite file of the sandbox', process.env.DATABASE_PATH ?? './data/sandbox.sqlite')
    .option('--no-access-log', 'do not print a line per request')
    .addHelpText(
      'after',
      `
Every other setting of the server (DATABASE_URL, PUBLIC_URL, TLS_*, RATE_LIMIT, ...) is read from the environment,
as \`npm start\` reads it; see packages/server/README.md.

Examples:
  $ aggregation serve
  $ aggregation serve --port 4000 --database /tmp/sandbox.sqlite`,
    )
    .action(async (options: { port: string; host: string; database: string; accessLog: boolean }) => {
      process.env.PORT = options.port;
      process.env.HOST = options.host;
      process.env.DATABASE_PATH = options.database;
      if (!options.accessLog) process.env.ACCESS_LOG = 'off';
      // The server's own entry point: one place decides what the sandbox server is.
      await import('@aggregation/server/main');
    });
}
