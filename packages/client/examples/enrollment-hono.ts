import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type SignedEnrollmentResult, verifyEnrollmentSignature } from '@aggregation/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// Your application's public signing key (signing_key.public_key of GET /sandbox/application, read once with a token
// of your own application): never the key of whatever token a request brings.
const publicKey = process.env.AGGREGATION_SIGNING_KEY ?? '';
// The nonces this backend gave the enrollment widget and has not seen back yet (in production: the user's session).
const issued = new Set<string>();

export const app = new Hono();

// The page asks for a nonce before it opens the widget: AggregationConnect.setup({ nonce, ... }).
app.post('/enrollments/nonce', (c) => {
  const nonce = randomUUID();
  issued.add(nonce);
  return c.json({ nonce });
});

// The page posts what the widget's onSuccess handed it, with the nonce of that run.
app.post('/enrollments', async (c) => {
  const { result, nonce } = await c.req.json<{ result: SignedEnrollmentResult; nonce: string }>();
  // Each nonce once: a result posted again (replayed) is refused.
  if (!issued.delete(nonce) || !(await verifyEnrollmentSignature(result, { publicKey, nonce }))) {
    return c.json({ error: 'the enrollment is not signed by the widget for this run' }, 400);
  }
  console.log('enrolled', result.enrollment.id, 'for', result.user.id); // store result.accessToken with the user
  return c.body(null, 201);
});

// `npx tsx examples/enrollment-hono.ts` listens on PORT (default 4243); a test imports `app` instead.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 4243) }, (info) => {
    console.log(`Listening on http://127.0.0.1:${info.port}/enrollments`);
  });
}
