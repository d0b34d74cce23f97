// Enrollments as integrators make them: `POST /sandbox/enrollments` with a sandbox user, answered with a token
// and the enrollment's accounts. Used by the server target (before it announces readiness) and by scenarios that
// enroll many integrators at once, or one while a load runs.
import { request } from 'node:http';
import pMap from 'p-map';

export interface Enrolled {
  username: string;
  token: string;
  authorization: string;
  accounts: { id: string; subtype: string; links: Record<string, string> }[];
  seconds: number;
}

/** The enrollment's checking account (its first where it has none): the one the read scenarios page through. */
export function checkingAccount<A extends { subtype: string }>(accounts: readonly A[]): A {
  return accounts.find((account) => account.subtype === 'checking') ?? accounts[0]!;
}

export async function enroll(baseUrl: string, username: string): Promise<Enrolled> {
  const t0 = performance.now();
  const { status, text } = await postJson(`${baseUrl}/sandbox/enrollments`, { username, password: 'password' });
  if (status !== 201) throw new Error(`enrolling ${username}: ${status} ${text}`);
  const body = JSON.parse(text) as { access_token: string; accounts: Enrolled['accounts'] };
  return {
    username,
    token: body.access_token,
    authorization: `Basic ${Buffer.from(`${body.access_token}:`).toString('base64')}`,
    accounts: body.accounts,
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * A JSON POST over node:http, which waits for the answer as long as it takes: fetch gives up on headers after
 * 300 s, and `history.1000000` created under a read load can take longer.
 */
function postJson(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** `count` enrollments of `username`, `concurrency` at a time. */
export function enrollMany(baseUrl: string, username: string, count: number, concurrency = 10): Promise<Enrolled[]> {
  return pMap(Array.from({ length: count }), () => enroll(baseUrl, username), { concurrency });
}
