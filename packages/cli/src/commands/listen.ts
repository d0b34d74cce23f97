// `aggregation listen --forward-to <url>`: like `stripe listen`. It points the sandbox's webhook URL at a receiver
// of its own on this machine and forwards each event to the given URL with the exact body and Service-Signature
// the server signed (it never signs anything itself), answering the server with the target's status so that the
// delivery log and its retries show the target's answers. On exit the previous webhook URL is put back.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, webhookEventTypes } from '@aggregation/client';
import type { Command } from 'commander';
import { CliError, Context } from '../context.ts';
import { clockTime, paint, printJson, statusStyle } from '../output.ts';
import { untilSignal } from '../signals.ts';

/** Headers of the server's request that go to the target as they came. */
const FORWARDED_HEADERS = ['content-type', 'user-agent', SIGNATURE_HEADER.toLowerCase()];
/** The longest wait for the target, below the server's own timeout of an attempt (10 s). */
const FORWARD_TIMEOUT_MS = 9_000;

export interface Forwarded {
  time: string;
  type: string | null;
  id: string | null;
  /** The target's status; null when it did not answer. */
  status: number | null;
  latency_ms: number;
  error?: string;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The envelope's type and id, for the line printed; the body itself is forwarded untouched. */
function envelopeOf(body: Buffer): { type: string | null; id: string | null } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { type?: unknown; id?: unknown };
    return { type: typeof parsed.type === 'string' ? parsed.type : null, id: typeof parsed.id === 'string' ? parsed.id : null };
  } catch {
    return { type: null, id: null };
  }
}

async function forward(target: string, request: IncomingMessage, body: Buffer): Promise<{ status: number | null; answer: Buffer; error?: string }> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers,
      body: new Uint8Array(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    return { status: response.status, answer: Buffer.from(await response.arrayBuffer()) };
  } catch (error) {
    const failure = error as Error & { cause?: { code?: string } };
    const why =
      failure.name === 'TimeoutError'
        ? `no answer within ${FORWARD_TIMEOUT_MS} ms`
        : failure.cause?.code === 'ECONNREFUSED'
          ? 'connection refused'
          : (failure.cause?.code ?? failure.message);
    return { status: null, answer: Buffer.from(why), error: why };
  }
}

const describe = (event: Forwarded, target: string): string =>
  [
    clockTime(event.time),
    paint('bold', (event.type ?? '(not an event)').padEnd(38)),
    event.id ?? '-',
    '->',
    event.status === null ? paint('red', event.error ?? 'no answer') : paint(statusStyle(event.status), `[${event.status}]`),
    `POST ${target}`,
    paint('dim', `${event.latency_ms} ms`),
  ].join(' ');

export function listenCommand(program: Command): void {
  program
    .command('listen')
    .description("Receive the application's webhook events here and forward them, signed as sent, to a local URL")
    .requiredOption('--forward-to <url>', 'where each event is POSTed, e.g. http://localhost:4242/webhooks')
    .option('--events <types>', 'only these event types, comma-separated (default all)', (value: string) =>
      value
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean),
    )
    .addHelpText(
      'after',
      `
While it runs, the sandbox's webhook URL points at this command, which must run on the server's machine. Verify
the events with the signing secret it prints (verifyWebhook of @aggregation/client). Events of other types are
acknowledged and not forwarded. Ctrl-C (or SIGTERM) puts the previous webhook URL back.

Examples:
  $ aggregation listen --forward-to http://localhost:4242/webhooks
  $ aggregation listen --forward-to http://localhost:4242/webhooks --events transactions.processed,webhook.test`,
    )
    .action(async (options: { forwardTo: string; events?: string[] }, command: Command) => {
      const context = Context.of(command);
      let target: URL;
      try {
        target = new URL(options.forwardTo);
      } catch {
        throw new CliError(`--forward-to must be an absolute http URL, not "${options.forwardTo}".`);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new CliError('--forward-to must be an http or https URL.');
      const forwardTo = target.href;
      const unknown = options.events?.filter((type) => !(webhookEventTypes as readonly string[]).includes(type)) ?? [];
      if (unknown.length > 0) throw new CliError(`Unknown event types in --events: ${unknown.join(', ')}; known: ${webhookEventTypes.join(', ')}.`);
      const wanted = options.events ? new Set(options.events) : undefined;
      const sandbox = context.sandbox(context.token());
      const previous = await context.ok(sandbox.GET('/sandbox/webhook'), 'GET /sandbox/webhook');

      const server: Server = createServer(async (request, response) => {
        const started = performance.now();
        const body = await readBody(request);
        const { type, id } = envelopeOf(body);
        if (request.method !== 'POST' || (wanted && (type === null || !wanted.has(type)))) {
          response.writeHead(204).end();
          return;
        }
        const outcome = await forward(forwardTo, request, body);
        const event: Forwarded = {
          time: new Date().toISOString(),
          type,
          id,
          status: outcome.status,
          latency_ms: Math.round(performance.now() - started),
          ...(outcome.error ? { error: outcome.error } : {}),
        };
        if (context.json) printJson(event);
        else console.log(describe(event, forwardTo));
        // The server records the target's answer (and retries it) as if it had called the target itself.
        response.writeHead(outcome.status ?? 502, { 'content-type': 'text/plain' }).end(outcome.answer);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      let restored = false;
      const restore = async () => {
        if (restored) return;
        restored = true;
        await context.ok(sandbox.PUT('/sandbox/webhook', { body: { url: previous.url } }), 'PUT /sandbox/webhook');
      };
      try {
        const settings = await context.ok(sandbox.PUT('/sandbox/webhook', { body: { url } }), 'PUT /sandbox/webhook');
        const secret = settings.secrets.find((entry) => entry.expires_at === null)?.secret ?? settings.secrets[0]?.secret;
        if (context.json) {
          printJson({
            ready: true,
            signing_secret: secret,
            secrets: settings.secrets.map((entry) => entry.secret),
            webhook_url: url,
            forward_to: forwardTo,
            previous_url: previous.url,
          });
        } else {
          console.log(`Ready! Your webhook signing secret is ${paint('bold', secret ?? '(none)')}`);
          console.log(`Forwarding ${wanted ? [...wanted].join(', ') : 'every event'} to ${forwardTo} (Ctrl-C to stop)`);
        }
        const signal = await untilSignal();
        await restore();
        if (!context.json) console.error(`${signal}: the webhook URL is ${previous.url ?? 'unset'} again.`);
      } finally {
        // Put back even when setting it failed midway or the server went away.
        await restore().catch((error: unknown) => context.fail(error));
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
}
