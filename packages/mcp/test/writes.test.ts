// `aggregation-mcp --allow-writes` over stdio with the official SDK's client: the tools that change data, each with
// the hints of its method; payments and payees that take an idempotency key and are made once however often the call
// is repeated; the MFA answer, which says what the user must do with the connect_token; removals.
import assert from 'node:assert/strict';
import { loadBundle } from '@aggregation/openapi/contract';
import { errorCodesOf } from '@aggregation/openapi/error-codes';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectedTools } from './helpers/expected.ts';
import { assertStructured, assertToolError, type Connected, connectStdio, textOf } from './helpers/mcp.ts';
import { type Enrollment, type Sandbox, startSandbox } from './helpers/sandbox.ts';

const codes = errorCodesOf(loadBundle('2020-10-12'));
const adviceFor = (code: string) => `What to do: ${codes.find((candidate) => candidate.code === code)!.action}`;

let sandbox: Sandbox;
let enrollment: Enrollment;
let mcp: Connected;
const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };
const checking = () => enrollment.accounts.find((account) => account.subtype === 'checking')!;
const savings = () => enrollment.accounts.find((account) => account.subtype === 'savings')!;
const payments = async () => (await sandbox.api(enrollment.token, `/accounts/${checking().id}/payments`)).body as { id: string; memo: string }[];

beforeAll(async () => {
  sandbox = await startSandbox();
  enrollment = await sandbox.enroll('username');
  mcp = await connectStdio({ token: enrollment.token, baseUrl: sandbox.url, args: ['--allow-writes'] });
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

describe('--allow-writes', () => {
  it('offers every tool of the description: removals destructive, payees and payments idempotent', async () => {
    assert.deepEqual(
      [...mcp.tools.keys()],
      (await expectedTools('2020-10-12')).map((tool) => tool.name),
    );
    const hints = (name: string) => {
      const { readOnlyHint, destructiveHint, idempotentHint } = mcp.tools.get(name)!.annotations!;
      return { readOnlyHint, destructiveHint, idempotentHint };
    };
    for (const name of ['delete_account', 'delete_accounts'])
      assert.deepEqual(hints(name), { readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['create_payment', 'create_payee'])
      assert.deepEqual(hints(name), { readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    assert.equal(mcp.tools.get('delete_account')!.outputSchema, undefined);
    assert.match(mcp.client.getInstructions() ?? '', /idempotency_key/);
  });

  it('requires an idempotency_key for a payment and a payee', async () => {
    const account_id = checking().id;
    assertToolError(
      await mcp.call('create_payment', { account_id, amount: '1.00', memo: 'Lunch', payee }),
      /must have required property 'idempotency_key'/,
    );
    assertToolError(await mcp.call('create_payee', { account_id, ...payee }), /must have required property 'idempotency_key'/);
    assert.equal((await payments()).length, 0, 'nothing was paid');
  });
});

describe('a payment', () => {
  it('is made once, however often the call is repeated with its key', async () => {
    const before = (await sandbox.api(enrollment.token, `/accounts/${checking().id}/balances`)).body;
    const args = { idempotency_key: crypto.randomUUID(), account_id: checking().id, amount: '25.00', memo: 'Dinner split', payee };
    const first = assertStructured(mcp.tools.get('create_payment')!, await mcp.call('create_payment', args));
    assert.match(first.id, /^pay_/);
    assert.equal(first.amount, '25.00');
    const again = await mcp.call('create_payment', args);
    assert.deepEqual(assertStructured(mcp.tools.get('create_payment')!, again), first);
    assert.match(textOf(again), /Replayed: .*nothing was made again/);
    const made = (await payments()).filter((payment) => payment.memo === 'Dinner split');
    assert.deepEqual(
      made.map((payment) => payment.id),
      [first.id],
    );
    const after = (await sandbox.api(enrollment.token, `/accounts/${checking().id}/balances`)).body;
    assert.equal((Number(before.ledger) - Number(after.ledger)).toFixed(2), '25.00');
  });

  it('with a key already used for another body is refused with what to do', async () => {
    const idempotency_key = crypto.randomUUID();
    const args = { idempotency_key, account_id: checking().id, amount: '2.00', memo: 'Parking', payee };
    assertStructured(mcp.tools.get('create_payment')!, await mcp.call('create_payment', args));
    assertToolError(
      await mcp.call('create_payment', { ...args, amount: '3.00' }),
      /^422 idempotency_key_reused: /,
      adviceFor('idempotency_key_reused'),
    );
  });

  it('from an account that cannot pay is refused with what to do', async () => {
    const args = { idempotency_key: crypto.randomUUID(), account_id: savings().id, amount: '1.00', memo: 'Lunch', payee };
    assertToolError(await mcp.call('create_payment', args), /^422 payments\.not_supported: /, adviceFor('payments.not_supported'));
  });

  it('that needs MFA answers with the connect_token and what the user must do, and pays nothing yet', async () => {
    const before = (await payments()).length;
    const args = { idempotency_key: crypto.randomUUID(), account_id: checking().id, amount: '40.00', memo: 'mfa', payee };
    const result = await mcp.call('create_payment', args);
    const challenge = assertStructured(mcp.tools.get('create_payment')!, result);
    assert.deepEqual(Object.keys(challenge), ['connect_token']);
    const text = textOf(result);
    assert.ok(text.includes(`connect_token: ${challenge.connect_token}`), text);
    assert.match(text, /Nothing was created yet/);
    assert.match(text, /enrollment widget.*connectToken/);
    assert.ok(text.includes(`call create_payment again with the same idempotency_key (${args.idempotency_key})`), text);
    assert.equal((await payments()).length, before);
  });
});

describe('a payment through MFA', () => {
  it('is made once the user approved it: the same call with the same key pays, once, and then replays', async () => {
    const before = (await payments()).length;
    const args = { idempotency_key: crypto.randomUUID(), account_id: checking().id, amount: '15.00', memo: 'mfa', payee };
    const challenged = await mcp.call('create_payment', args);
    const { connect_token: connectToken } = assertStructured(mcp.tools.get('create_payment')!, challenged);
    assert.ok(textOf(challenged).includes(`POST /sandbox/connect_tokens/${connectToken}/approve`), textOf(challenged));
    assert.ok(textOf(challenged).includes(`npx aggregation approve ${connectToken}`), textOf(challenged));
    // Until the user approves, the same call answers the same challenge, and pays nothing.
    const waiting = await mcp.call('create_payment', args);
    assert.deepEqual(waiting.structuredContent, { connect_token: connectToken });
    assert.match(textOf(waiting), /^Still waiting for the user/);
    assert.equal((await payments()).length, before);

    // The user approves it (here through the sandbox's control API, as the widget would).
    const approved = await sandbox.api(enrollment.token, `/sandbox/connect_tokens/${connectToken}/approve`, { method: 'POST' });
    assert.equal(approved.body.status, 'approved');

    const paid = assertStructured(mcp.tools.get('create_payment')!, await mcp.call('create_payment', args));
    assert.match(paid.id, /^pay_/);
    assert.equal(paid.amount, '15.00');
    const replayed = await mcp.call('create_payment', args);
    assert.deepEqual(replayed.structuredContent, paid);
    assert.match(textOf(replayed), /Replayed/);
    const after = await payments();
    assert.equal(after.length, before + 1);
    assert.equal(after.filter((payment) => payment.id === paid.id).length, 1);
  });

  it('for a user whose every payment needs approval (mfa.payments), likewise', async () => {
    const user = await sandbox.enroll('mfa.payments');
    const writer = await connectStdio({ token: user.token, baseUrl: sandbox.url, args: ['--allow-writes'] });
    try {
      const account_id = user.accounts.find((account) => account.links.payments)!.id;
      const args = { idempotency_key: crypto.randomUUID(), account_id, amount: '9.00', memo: 'Groceries', payee };
      const { connect_token: connectToken } = assertStructured(writer.tools.get('create_payment')!, await writer.call('create_payment', args));
      await sandbox.api(user.token, `/sandbox/connect_tokens/${connectToken}/approve`, { method: 'POST' });
      const paid = assertStructured(writer.tools.get('create_payment')!, await writer.call('create_payment', args));
      assert.equal(paid.memo, 'Groceries');
      const listed = (await sandbox.api(user.token, `/accounts/${account_id}/payments`)).body as { id: string }[];
      assert.deepEqual(
        listed.map((payment) => payment.id),
        [paid.id],
      );
    } finally {
      await writer.close();
    }
  });
});

describe('a payee', () => {
  it('is created with its key, and one named mfa answers with a connect_token', async () => {
    const created = assertStructured(
      mcp.tools.get('create_payee')!,
      await mcp.call('create_payee', {
        idempotency_key: crypto.randomUUID(),
        account_id: checking().id,
        ...payee,
        address: 'bob@example.com',
        name: 'Bob',
      }),
    );
    assert.equal(created.name, 'Bob');
    const challenge = await mcp.call('create_payee', { idempotency_key: crypto.randomUUID(), account_id: checking().id, ...payee, name: 'mfa' });
    assert.match(assertStructured(mcp.tools.get('create_payee')!, challenge).connect_token, /\S/);
    assert.match(textOf(challenge), /call create_payee again/);
  });
});

describe('removals', () => {
  it("remove one account's access, then the whole enrollment's, which revokes the token", async () => {
    const removed = await mcp.call('delete_account', { account_id: savings().id });
    assert.notEqual(removed.isError, true);
    assert.equal(removed.structuredContent, undefined);
    assert.match(textOf(removed), /^Remove access to an account: done \(204\)\.$/);
    assertToolError(await mcp.call('get_account', { account_id: savings().id }), /^404 not_found/);
    assert.notEqual((await mcp.call('delete_accounts')).isError, true);
    assertToolError(await mcp.call('list_accounts'), /^403 forbidden/, adviceFor('forbidden'));
    assert.ok(!mcp.log().includes(enrollment.token));
  });
});
