// verifyEnrollmentSignature on the vectors the server's signing code makes (shared with the Python and Go clients),
// and on what the sandbox's enrollment widget really hands an application.
import assert from 'node:assert/strict';
import { type App, createApp } from '@aggregation/server';
import { enrollmentSignatureVectors } from '@aggregation/server/signature-vectors';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createSandboxClient, type SignedEnrollmentResult, verifyEnrollmentSignature } from '../src/index.ts';
import { missingBundle } from './helpers/prism.ts';

const vectors = enrollmentSignatureVectors();

describe('verifyEnrollmentSignature on the shared vectors', () => {
  it('has both outcomes to check', () => {
    assert.ok(vectors.cases.some((vector) => vector.valid) && vectors.cases.some((vector) => !vector.valid));
  });

  for (const vector of vectors.cases) {
    const result: SignedEnrollmentResult = {
      accessToken: vector.access_token,
      user: { id: vector.user_id },
      enrollment: { id: vector.enrollment_id },
      signatures: vector.signatures,
    };
    const options = { nonce: vector.nonce, environment: vector.environment };
    it(`${vector.name}: ${vector.valid ? 'accepted' : 'refused'}, by the key alone and by the key with its id`, async () => {
      assert.equal(await verifyEnrollmentSignature(result, { ...options, publicKey: vector.public_key }), vector.valid);
      assert.equal(
        await verifyEnrollmentSignature(result, { ...options, publicKey: { id: vector.key_id, public_key: vector.public_key } }),
        vector.valid,
      );
    });
  }

  it('the environment is sandbox unless said otherwise', async () => {
    const [valid] = vectors.cases;
    const result = {
      accessToken: valid!.access_token,
      user: { id: valid!.user_id },
      enrollment: { id: valid!.enrollment_id },
      signatures: valid!.signatures,
    };
    assert.equal(await verifyEnrollmentSignature(result, { publicKey: valid!.public_key, nonce: valid!.nonce }), true);
  });

  it('a public key that is not 32 bytes of base64url is a TypeError, not a refusal', async () => {
    const [valid] = vectors.cases;
    const result = { accessToken: null, user: { id: 'usr_x' }, enrollment: { id: 'enr_x' }, signatures: valid!.signatures };
    for (const publicKey of ['', 'not base64!', valid!.public_key.slice(0, 20)]) {
      await assert.rejects(verifyEnrollmentSignature(result, { publicKey }), TypeError);
    }
  });
});

describe.skipIf(missingBundle('sandbox'))('verifyEnrollmentSignature on what the sandbox signs', () => {
  let app: App;
  const baseUrl = 'http://localhost';
  const fetch = (request: Request) => app.fetch(request);

  beforeAll(() => {
    app = createApp({ webhooks: { autostart: false } });
  });
  afterAll(() => app.close());

  it("an enrollment through the widget's steps verifies with the application's key, for its nonce only", async () => {
    const anonymous = createSandboxClient({ baseUrl, fetch });
    const started = await anonymous.POST('/sandbox/connect/sessions', { body: { application_id: 'app_default', nonce: 'backend-nonce-1' } });
    const session = started.data!;
    const done = await anonymous.POST('/sandbox/connect/sessions/{session_id}/credentials', {
      params: { path: { session_id: session.id } },
      body: { application_id: 'app_default', institution_id: 'chase', username: 'username', password: 'password' },
    });
    const enrolled = done.data!.result!;
    assert.ok('access_token' in enrolled);
    // As the widget's onSuccess hands it to the page.
    const result: SignedEnrollmentResult = {
      accessToken: enrolled.access_token,
      user: enrolled.user,
      enrollment: enrolled.enrollment,
      signatures: enrolled.signatures,
    };
    const application = await createSandboxClient({ baseUrl, fetch, token: enrolled.access_token! }).GET('/sandbox/application');
    const publicKey = application.data!.signing_key;
    assert.equal(await verifyEnrollmentSignature(result, { publicKey, nonce: 'backend-nonce-1' }), true);
    assert.equal(await verifyEnrollmentSignature(result, { publicKey, nonce: 'another-run' }), false);
    assert.equal(await verifyEnrollmentSignature({ ...result, accessToken: 'test_token_forged' }, { publicKey, nonce: 'backend-nonce-1' }), false);
  });
});
