// `aggregation serve`: the sandbox server on the embedded database, exactly what `npm start` runs. The flags are
// the server's settings (packages/server/README.md), given as flags instead of the environment. The server is an
// optional peer of this package: it runs where @aggregation/server is installed beside it.
import type { Command } from 'commander';
import { CliError } from '../context.ts';

const SERVER_PACKAGE = '@aggregation/server';
/** What the server needs: it stores data with node:sqlite (packages/server/src/node-version.ts). */
const SERVER_NODE_MAJOR = 24;

/** The server's entry point, or a CliError saying how to install it. */
async function importServer(): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < SERVER_NODE_MAJOR) {
    throw new CliError(
      `\`aggregation serve\` runs ${SERVER_PACKAGE}, which needs Node.js ${SERVER_NODE_MAJOR} or newer; this is Node.js ${process.versions.node}. The other commands work here against a server elsewhere (--base-url).`,
    );
  }
  try {
    // The server's own entry point: one place decides what the sandbox server is.
    await import('@aggregation/server/main');
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (failure.code !== 'ERR_MODULE_NOT_FOUND' || !failure.message.includes(`'${SERVER_PACKAGE}'`)) throw error;
    throw new CliError(
      `\`aggregation serve\` runs the sandbox server of ${SERVER_PACKAGE}, which is not installed beside this command. Install it (Node.js ${SERVER_NODE_MAJOR}+): npm install ${SERVER_PACKAGE}`,
    );
  }
}

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the sandbox server (what `npm start` runs) on the embedded database; needs @aggregation/server')
    .option('--port <port>', 'port to listen on (0: any free port)', process.env.PORT ?? '3000')
    .option('--host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
    .option('--database <path>', 'SQLite file of the sandbox', process.env.DATABASE_PATH ?? './data/sandbox.sqlite')
    .option('--no-access-log', 'do not print a line per request')
    .addHelpText(
      'after',
      `
The server is the package @aggregation/server (Node.js 24+), installed beside this one: npm install @aggregation/server.
Every other setting of the server (DATABASE_URL, PUBLIC_URL, TLS_*, RATE_LIMIT, ...) is read from the environment,
as \`npm start\` reads it; see its README.

Examples:
  $ aggregation serve
  $ aggregation serve --port 4000 --database /tmp/sandbox.sqlite`,
    )
    .action(async (options: { port: string; host: string; database: string; accessLog: boolean }) => {
      process.env.PORT = options.port;
      process.env.HOST = options.host;
      process.env.DATABASE_PATH = options.database;
      if (!options.accessLog) process.env.ACCESS_LOG = 'off';
      await importServer();
    });
}
