import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

const { data, error } = await sandbox.POST('/sandbox/enrollment/disconnect', {
  body: { reason: 'credentials_changed' },
});
if (error) throw new Error(error.error.message);
console.log(data.id, data.status);
