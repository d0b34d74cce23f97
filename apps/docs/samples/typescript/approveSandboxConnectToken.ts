import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

// Approves the MFA challenge as its user would; then send the request that answered it again, with the same
// Idempotency-Key and body.
const { data, error } = await sandbox.POST('/sandbox/connect_tokens/{connect_token}/approve', {
  params: { path: { connect_token: process.env.CONNECT_TOKEN! } },
});
if (error) throw new Error(error.error.message);
console.log(data.operation, data.status);
