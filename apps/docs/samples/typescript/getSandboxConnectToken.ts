import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

const { data, error } = await sandbox.GET('/sandbox/connect_tokens/{connect_token}', {
  params: { path: { connect_token: process.env.CONNECT_TOKEN! } },
});
if (error) throw new Error(error.error.message);
console.log(data.operation, data.status, `expires ${data.expires_at}`);
