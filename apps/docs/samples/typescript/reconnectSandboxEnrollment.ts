import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

// Reconnects the token's disconnected enrollment, as its user signing in again would.
const { data, error } = await sandbox.POST('/sandbox/enrollment/reconnect');
if (error) throw new Error(error.error.message);
console.log(data.id, data.status);
