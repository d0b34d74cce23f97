// The example's backend on hostile input: what the page posts is checked for shape before anything else, and a result
// is kept only once its signatures are verified. (The browser test covers the journeys against a sandbox.)
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { exampleApp } from '../src/app.ts';
import type { EnrollmentProof } from '../src/verify.ts';

const proof: EnrollmentProof = {
  accessToken: 'test_token_example',
  user: { id: 'usr_1' },
  enrollment: { id: 'enr_1', institution: { id: 'chase', name: 'Chase' } },
  signatures: [{ key_id: 'key_1', algorithm: 'Ed25519', signature: 'c2lnbmF0dXJl' }],
};

function backend(verdict: boolean) {
  const checked: { proof: EnrollmentProof; nonce: string; token: string }[] = [];
  const app = exampleApp({
    sandboxUrl: 'http://127.0.0.1:9',
    applicationId: 'app_default',
    verifier: async (given, nonce, token) => {
      checked.push({ proof: given, nonce, token });
      return verdict;
    },
  });
  let cookie = '';
  const call = async (method: string, path: string, body?: string) => {
    const response = await app.request(path, { method, headers: { cookie, 'content-type': 'application/json' }, body });
    cookie ||= (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    return { status: response.status, body: (await response.json()) as any };
  };
  return { call, checked };
}

describe("the example's backend", () => {
  it('refuses a posted result of the wrong shape without checking it, and keeps nothing', async () => {
    const { call, checked } = backend(true);
    const session = await call('GET', '/api/session');
    const bodies = [
      'not json',
      '[]',
      '{}',
      JSON.stringify({ ...proof, accessToken: 5 }),
      JSON.stringify({ ...proof, user: {} }),
      JSON.stringify({ ...proof, enrollment: { id: 'enr_1' } }),
      JSON.stringify({ ...proof, signatures: [] }),
      JSON.stringify({ ...proof, signatures: [{ key_id: 'key_1', algorithm: 'Ed25519', signature: 7 }] }),
      JSON.stringify({ ...proof, signatures: Array.from({ length: 11 }, () => proof.signatures[0]) }),
      JSON.stringify({ ...proof, accessToken: 'x'.repeat(501) }),
      `{"__proto__": {"polluted": true}, "accessToken": "test_token_x"}`,
    ];
    for (const body of bodies) {
      const answer = await call('POST', '/api/enrollments', body);
      assert.equal(answer.status, 400, body);
      assert.equal(answer.body.error.code, 'invalid_request', body);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(checked, []);
    assert.equal((await call('GET', '/api/session')).body.enrollment, null);
    assert.equal((await call('GET', '/api/accounts')).status, 409);
    assert.equal(session.status, 200);
  });

  it('keeps a result only when its signatures check out for the session nonce', async () => {
    const refused = backend(false);
    const { body: session } = await refused.call('GET', '/api/session');
    const answer = await refused.call('POST', '/api/enrollments', JSON.stringify(proof));
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.code, 'signature_invalid');
    assert.deepEqual(refused.checked, [{ proof, nonce: session.nonce, token: proof.accessToken }]);
    assert.equal((await refused.call('GET', '/api/session')).body.enrollment, null);

    const kept = backend(true);
    const created = await kept.call('POST', '/api/enrollments', JSON.stringify(proof));
    assert.equal(created.status, 201);
    assert.deepEqual((await kept.call('GET', '/api/session')).body.enrollment, { id: 'enr_1', institution: { id: 'chase', name: 'Chase' } });
  });

  it("verifies a reconnect (no token) with the token the session kept, and only for the session's enrollment", async () => {
    const { call, checked } = backend(true);
    const reconnect = JSON.stringify({ ...proof, accessToken: null });
    assert.equal((await call('POST', '/api/enrollments', reconnect)).status, 401, 'no enrollment kept: nothing to reconnect');
    assert.equal((await call('POST', '/api/enrollments', JSON.stringify(proof))).status, 201);
    assert.equal(
      (await call('POST', '/api/enrollments', JSON.stringify({ ...proof, accessToken: null, enrollment: { ...proof.enrollment, id: 'enr_2' } })))
        .status,
      401,
    );
    assert.equal((await call('POST', '/api/enrollments', reconnect)).status, 201);
    assert.equal(checked.at(-1)!.token, proof.accessToken);
  });

  it('refuses a payment of the wrong shape, and every call that needs an enrollment before there is one', async () => {
    const { call } = backend(true);
    for (const [method, path] of [
      ['GET', '/api/accounts'],
      ['GET', '/api/accounts/acc_1/transactions'],
      ['POST', '/api/payments'],
      ['POST', '/api/payments/x/confirm'],
    ] as const) {
      const answer = await call(method, path, method === 'POST' ? '{}' : undefined);
      assert.equal(answer.status, 409, path);
      assert.equal(answer.body.error.code, 'not_enrolled', path);
    }
    assert.equal((await call('POST', '/api/enrollments', JSON.stringify(proof))).status, 201);
    for (const body of ['[]', '{}', JSON.stringify({ accountId: 'acc_1', amount: 25, memo: 'x', payeeName: 'Bob', payeeAddress: 'bob@example.com' })]) {
      const answer = await call('POST', '/api/payments', body);
      assert.equal(answer.status, 400, body);
    }
    assert.equal((await call('POST', '/api/payments/unknown/confirm')).status, 404);
  });
});
