// `npm start -w @aggregation/connect-example`: the example on http://localhost:4000 (PORT), against the sandbox at
// AGGREGATION_BASE_URL (default http://localhost:3000), enrolling for AGGREGATION_APPLICATION_ID (default app_default).
import { serve } from '@hono/node-server';
import { exampleApp } from './app.ts';
import { applicationVerifier } from './verify.ts';

const sandboxUrl = (process.env.AGGREGATION_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const applicationId = process.env.AGGREGATION_APPLICATION_ID ?? 'app_default';
const port = Number(process.env.PORT ?? 4000);
const hostname = process.env.HOST ?? '127.0.0.1';

const app = exampleApp({ sandboxUrl, applicationId, verifier: await applicationVerifier(sandboxUrl, applicationId) });
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`Example app on http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${info.port} (sandbox: ${sandboxUrl})`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
