import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import vectors from '../../../openapi/test/fixtures/webhook-signatures.json' with { type: 'json' };
import { parseSignatureHeader, signWebhook, verifyWebhook, type WebhookVerificationError, type WebhookVerificationFailure } from '../src/index.ts';

// Fixed vectors, shared with the Python and Go clients: HMAC-SHA256 hex digests of "<t>.<body>", computed
// independently with node:crypto.
const { body, timestamp: t, secrets, signatures } = vectors;
const { current, next } = secrets;
const { current: currentSig, next: nextSig } = signatures;
const now = new Date(t * 1000 + 30_000);

async function rejects(promise: Promise<unknown>, reason: WebhookVerificationFailure) {
  await assert.rejects(promise, (error: WebhookVerificationError) => {
    assert.equal(error.name, 'WebhookVerificationError');
    assert.equal(error.reason, reason);
    return true;
  });
}

describe('verifyWebhook', () => {
  it('accepts a valid signature and returns the typed event', async () => {
    const event = await verifyWebhook(body, `t=${t},v1=${currentSig}`, current, { now });
    assert.equal(event.type, 'enrollment.disconnected');
    if (event.type === 'enrollment.disconnected') {
      assert.equal(event.payload.enrollment_id, 'enr_9f8e7d');
      assert.equal(event.payload.reason, 'password_changed');
    }
  });

  it('accepts the raw body as bytes', async () => {
    const event = await verifyWebhook(new TextEncoder().encode(body), `t=${t},v1=${currentSig}`, [current], { now });
    assert.equal(event.id, 'evt_1a2b3c');
  });

  it('rejects a tampered body', async () => {
    await rejects(verifyWebhook(body.replace('enr_9f8e7d', 'enr_000000'), `t=${t},v1=${currentSig}`, current, { now }), 'signature_mismatch');
  });

  it('rejects re-serialized JSON (whitespace changes the signed bytes)', async () => {
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    await rejects(verifyWebhook(pretty, `t=${t},v1=${currentSig}`, current, { now }), 'signature_mismatch');
  });

  it('rejects a signature made with another secret', async () => {
    await rejects(verifyWebhook(body, `t=${t},v1=${currentSig}`, 'whsec_other', { now }), 'signature_mismatch');
  });

  it('rejects a changed timestamp (it is part of the signed message)', async () => {
    await rejects(verifyWebhook(body, `t=${t + 1},v1=${currentSig}`, current, { now }), 'signature_mismatch');
  });

  it('rejects a stale timestamp beyond the tolerance', async () => {
    await rejects(verifyWebhook(body, `t=${t},v1=${currentSig}`, current, { now: t * 1000 + 181_000 }), 'timestamp_too_old');
    // exactly at the tolerance is still accepted
    await verifyWebhook(body, `t=${t},v1=${currentSig}`, current, { now: t * 1000 + 180_000 });
  });

  it('rejects a timestamp from the future beyond the tolerance', async () => {
    await rejects(verifyWebhook(body, `t=${t},v1=${currentSig}`, current, { now: t * 1000 - 181_000 }), 'timestamp_in_future');
  });

  it('honours a custom tolerance', async () => {
    await rejects(verifyWebhook(body, `t=${t},v1=${currentSig}`, current, { now, toleranceSeconds: 10 }), 'timestamp_too_old');
  });

  describe('rotation: two secrets live at once', () => {
    const header = `t=${t},v1=${currentSig},v1=${nextSig}`;
    it('a receiver with only the old secret accepts', async () => {
      assert.equal((await verifyWebhook(body, header, current, { now })).id, 'evt_1a2b3c');
    });
    it('a receiver with only the new secret accepts', async () => {
      assert.equal((await verifyWebhook(body, header, next, { now })).id, 'evt_1a2b3c');
    });
    it('a receiver with both accepts either single signature', async () => {
      await verifyWebhook(body, `t=${t},v1=${nextSig}`, [current, next], { now });
      await verifyWebhook(body, `t=${t},v1=${currentSig}`, [current, next], { now });
    });
    it('an unrelated secret still fails', async () => {
      await rejects(verifyWebhook(body, header, ['whsec_x', 'whsec_y'], { now }), 'signature_mismatch');
    });
  });

  it('reads a missing header as missing', async () => {
    await rejects(verifyWebhook(body, undefined, current, { now }), 'missing_header');
  });

  it('rejects when no secret is configured', async () => {
    await rejects(verifyWebhook(body, `t=${t},v1=${currentSig}`, [], { now }), 'no_secret');
    await rejects(verifyWebhook(body, `t=${t},v1=${currentSig}`, '', { now }), 'no_secret');
  });

  it('rejects a signed body that is not an event envelope', async () => {
    const raw = '{"hello":"world"}';
    const header = await signWebhook(raw, current, { timestamp: t });
    await rejects(verifyWebhook(raw, header, current, { now }), 'invalid_payload');
    const text = 'not json';
    await rejects(verifyWebhook(text, await signWebhook(text, current, { timestamp: t }), current, { now }), 'invalid_payload');
  });

  it('reports an authentic event of an unknown type with the event attached', async () => {
    const raw = '{"id":"evt_2","type":"payments.settled","timestamp":"2024-05-01T12:00:00Z","payload":{}}';
    const header = await signWebhook(raw, current, { timestamp: t });
    await assert.rejects(verifyWebhook(raw, header, current, { now }), (error: WebhookVerificationError) => {
      assert.equal(error.reason, 'unknown_event_type');
      assert.deepEqual(error.event, JSON.parse(raw));
      return true;
    });
  });
});

describe('the shared signature vectors', () => {
  for (const vector of vectors.cases) {
    it(`${vector.name}: ${vector.expect}`, async () => {
      const verifying = verifyWebhook(vector.body ?? body, vector.header, vector.secrets, { now: vector.now * 1000 });
      if (vector.expect === 'valid') assert.equal((await verifying).id, JSON.parse(body).id);
      else await rejects(verifying, vector.expect as WebhookVerificationFailure);
    });
  }
});

describe('signWebhook', () => {
  it('reproduces the fixed vectors', async () => {
    assert.equal(await signWebhook(body, current, { timestamp: t }), `t=${t},v1=${currentSig}`);
    assert.equal(await signWebhook(body, [current, next], { timestamp: t }), `t=${t},v1=${currentSig},v1=${nextSig}`);
  });

  it('round-trips with verifyWebhook at the current time', async () => {
    const raw = '{"id":"evt_3","type":"webhook.test","timestamp":"2024-05-01T12:00:00Z","payload":{}}';
    const event = await verifyWebhook(raw, await signWebhook(raw, next), [current, next]);
    assert.equal(event.type, 'webhook.test');
  });
});

describe('parseSignatureHeader', () => {
  it('returns the timestamp and every v1', () => {
    assert.deepEqual(parseSignatureHeader(`t=${t},v1=${currentSig},v1=${nextSig}`), {
      timestamp: t,
      signatures: [currentSig, nextSig],
    });
  });
});
