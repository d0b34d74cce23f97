// `aggregation logs tail`: the server's request log as it happens, from `GET /sandbox/logs`.
import type { Command } from 'commander';
import { Context } from '../context.ts';
import { linesUntil } from '../lines.ts';
import { clockTime, paint, printJson, statusStyle } from '../output.ts';
import { untilSignal } from '../signals.ts';

interface LogLine {
  time?: string;
  method?: string;
  path?: string;
  status?: number;
  duration_ms?: number;
  request_id?: string;
  replayed?: boolean;
  dropped?: number;
}

const describe = (line: LogLine): string =>
  line.dropped !== undefined
    ? paint('yellow', `(${line.dropped} requests not shown: the terminal fell behind)`)
    : [
        clockTime(line.time!),
        paint(statusStyle(line.status!), String(line.status)),
        line.method!.padEnd(6),
        line.path!,
        paint('dim', `${line.duration_ms}ms`),
        paint('dim', line.request_id!),
        line.replayed ? paint('dim', '(replayed)') : '',
      ]
        .join(' ')
        .trimEnd();

export function logsCommand(program: Command): void {
  const logs = program.command('logs').description("The server's request log");
  logs
    .command('tail')
    .description("Print the token's requests as they happen: method, path, status, latency and request id")
    .addHelpText(
      'after',
      `
Only the requests made with the enrollment's tokens are shown. Stop with Ctrl-C.

Examples:
  $ aggregation logs tail
  $ aggregation logs tail --json | jq 'select(.status >= 400)'`,
    )
    .action(async (_options: unknown, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token());
      const abort = new AbortController();
      const stream = await context.ok(sandbox.GET('/sandbox/logs', { parseAs: 'stream', signal: abort.signal }), 'GET /sandbox/logs');
      console.error(paint('dim', `Tailing the request log of ${context.baseUrl} (Ctrl-C to stop)`, process.stderr));
      const stopped = untilSignal().then(() => abort.abort());
      try {
        for await (const text of linesUntil(stream as ReadableStream<Uint8Array>, stopped)) {
          const line = JSON.parse(text) as LogLine;
          if (context.json) printJson(line);
          else console.log(describe(line));
        }
      } catch (error) {
        if (!abort.signal.aborted) throw error;
      }
      if (!abort.signal.aborted) console.error('The server ended the stream.');
    });
}
