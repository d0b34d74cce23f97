// Enrollments as integrators make them: `POST /sandbox/enrollments` with a sandbox user, answered with a token
// and the enrollment's accounts. Used by the server target (before it announces readiness) and by scenarios that
// enroll many integrators at once, or one while a load runs.

export interface Enrolled {
  username: string;
  token: string;
  authorization: string;
  accounts: { id: string; subtype: string; links: Record<string, string> }[];
  seconds: number;
}

export async function enroll(baseUrl: string, username: string): Promise<Enrolled> {
  const t0 = performance.now();
  const response = await fetch(`${baseUrl}/sandbox/enrollments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'password' }),
  });
  if (response.status !== 201) throw new Error(`enrolling ${username}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { access_token: string; accounts: Enrolled['accounts'] };
  return {
    username,
    token: body.access_token,
    authorization: `Basic ${Buffer.from(`${body.access_token}:`).toString('base64')}`,
    accounts: body.accounts,
    seconds: (performance.now() - t0) / 1000,
  };
}

/** `count` enrollments of `username`, `concurrency` at a time, in order of completion. */
export async function enrollMany(baseUrl: string, username: string, count: number, concurrency = 10): Promise<Enrolled[]> {
  const enrolled: Enrolled[] = [];
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      enrolled.push(await enroll(baseUrl, username));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return enrolled;
}
