// Throwaway PKI for mutual-TLS tests: a CA, a server certificate for localhost and a client certificate.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opensslNewKey } from '@aggregation/test-support';

export type TestPki = { ca: string; serverCert: string; serverKey: string; clientCert: string; clientKey: string };

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'client-pki-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  try {
    // A name of its own: two test CAs with one name would make OpenSSL check a certificate of one against the key of
    // the other, which fails the connection instead of leaving the certificate unauthorized.
    run('req', '-x509', ...opensslNewKey, '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', `/CN=Test CA ${randomUUID()}`);
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    for (const [name, subject, extra] of [
      ['server', '/CN=localhost', ['-extfile', 'san.ext']],
      ['client', '/CN=test-application', []],
    ] as const) {
      run('req', ...opensslNewKey, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
      run('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', ...extra);
    }
    const read = (file: string) => readFileSync(join(dir, file), 'utf8');
    return {
      ca: read('ca.crt'),
      serverCert: read('server.crt'),
      serverKey: read('server.key'),
      clientCert: read('client.crt'),
      clientKey: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
