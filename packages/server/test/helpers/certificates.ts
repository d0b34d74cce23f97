// Throwaway certificates made with openssl for HTTPS with a client CA: a CA, a server certificate for localhost
// and 127.0.0.1, a client certificate the CA signed and one signed by another CA. Plus requests over HTTPS that
// trust that CA and present a client certificate, which fetch cannot do.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { opensslNewKey, which } from '@aggregation/test-support';
import { basic } from './harness.ts';

export const hasOpenssl = (): boolean => which('openssl') !== undefined;

export interface KeyPair {
  key: Buffer;
  cert: Buffer;
}

export interface Certificates {
  ca: Buffer;
  server: KeyPair;
  client: KeyPair;
  rogue: KeyPair;
  /** Where each file is in `dir` (`ca.crt`, `server.key`, ...), for a server that reads files. */
  file(name: string): string;
}

/** Makes them in `dir`, which the caller removes. */
export function certificates(dir: string): Certificates {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const selfSigned = (name: string, subject: string) =>
    ssl('req', '-x509', ...opensslNewKey, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', subject);
  const signed = (name: string, subject: string, ca: string, ext?: string) => {
    ssl('req', ...opensslNewKey, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      ...(ext ? ['-extfile', ext] : []),
    );
  };
  selfSigned('ca', '/CN=Test Client CA');
  selfSigned('rogue-ca', '/CN=Rogue CA');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  signed('server', '/CN=localhost', 'ca', 'server.ext');
  signed('client', '/CN=developer', 'ca');
  signed('rogue', '/CN=rogue', 'rogue-ca');
  const file = (name: string) => join(dir, name);
  const read = (name: string) => readFileSync(file(name));
  const pair = (name: string) => ({ key: read(`${name}.key`), cert: read(`${name}.crt`) });
  return { ca: read('ca.crt'), server: pair('server'), client: pair('client'), rogue: pair('rogue'), file };
}

export interface HttpsReply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface HttpsCall {
  /** Trusted to sign the server's certificate. */
  ca: Buffer;
  method?: string;
  token?: string;
  /** Presented when given. */
  client?: KeyPair | undefined;
  json?: unknown;
}

/** A request over HTTPS; rejects when the handshake fails. */
export function httpsCall(url: string, { ca, method = 'GET', token, client, json }: HttpsCall): Promise<HttpsReply> {
  const headers: Record<string, string> = {
    ...(token ? { authorization: basic(token) } : {}),
    ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method, ca, headers, ...(client ?? {}) }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve({ status: response.statusCode!, headers, body: text ? JSON.parse(text) : undefined, text });
      });
    });
    request.on('error', reject);
    request.end(json === undefined ? undefined : JSON.stringify(json));
  });
}
