// A server in its own process, and a client that sends a body past the limit on a connection it asked to close: the
// server answers 413 from the headers while the body is still coming. Closing the socket with unread bytes made the
// kernel send a reset that could overtake the answer (a few tries in a hundred); the lingering close reads and drops
// the rest first. In its own process because within one event loop the client always reads before the reset comes.
// The same over HTTPS, where the HTTP layer closes the TLS socket rather than the TCP one. There the answer was not lost
// without the lingering close either (150 of 150, twice): the TLS layer reads what comes in as it comes. The case
// guards that the close set on the TLS socket still answers, and ends the connection.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { MAX_BODY_BYTES } from '../src/http/middleware/validate.ts';
import { type Certificates, certificates, hasOpenssl } from './helpers/certificates.ts';
import { type ListeningChild, startListening } from './helpers/child.ts';

const TRIES = 300;
/** Fewer over HTTPS: each try is a handshake too. */
const TLS_TRIES = 150;

const servers: ListeningChild[] = [];
const dirs: string[] = [];

/** The sandbox in a process of its own on a database of its own, with `env` added. */
async function serve(env: NodeJS.ProcessEnv = {}): Promise<ListeningChild> {
  const dir = mkdtempSync(join(tmpdir(), 'lingering-'));
  dirs.push(dir);
  const server = await startListening(fileURLToPath(new URL('../src/main.ts', import.meta.url)), {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'sandbox.sqlite'), ACCESS_LOG: 'off', ...env },
  });
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The first line the client read before the connection ended, however it ended. */
function statusLineOf(open: () => Socket, request: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = open();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').split('\r\n')[0]!));
    socket.write(request);
  });
}

/** Every status line that is not 413 when `request` is sent `tries` times, one connection after another. */
async function not413(open: () => Socket, request: Buffer, tries: number): Promise<string[]> {
  const lines: string[] = [];
  for (let attempt = 0; attempt < tries; attempt++) lines.push(await statusLineOf(open, request));
  return lines.filter((line) => line !== 'HTTP/1.1 413 Payload Too Large');
}

/** A payment whose body is twice the limit, on a connection the client asks to close. */
function oversizedRequest(): Buffer {
  const body = Buffer.from(JSON.stringify({ amount: '1.00', memo: 'x'.repeat(2 * MAX_BODY_BYTES) }));
  const head = [
    'POST /accounts/acc_none/payments HTTP/1.1',
    'Host: 127.0.0.1',
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${body.length}`,
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
}

test(`a body past the limit on a connection the client closes is answered 413 each time of ${TRIES}, never reset`, async () => {
  const port = Number(new URL((await serve()).url).port);
  const others = await not413(() => connect(port, '127.0.0.1'), oversizedRequest(), TRIES);
  assert.deepEqual(others, [], `${others.length} of ${TRIES} were not answered 413`);
});

describe.skipIf(!hasOpenssl() && 'openssl is not installed')('over HTTPS', () => {
  let certs: Certificates;
  let port: number;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingering-tls-'));
    dirs.push(dir);
    certs = certificates(dir);
    const server = await serve({ TLS_KEY: certs.file('server.key'), TLS_CERT: certs.file('server.crt') });
    assert.match(server.url, /^https:/);
    port = Number(new URL(server.url).port);
  });

  test(`the same body is answered 413 each time of ${TLS_TRIES}, never reset`, async () => {
    const open = () => tlsConnect({ port, host: '127.0.0.1', ca: certs.ca, servername: 'localhost' });
    const others = await not413(open, oversizedRequest(), TLS_TRIES);
    assert.deepEqual(others, [], `${others.length} of ${TLS_TRIES} were not answered 413`);
  });
});
