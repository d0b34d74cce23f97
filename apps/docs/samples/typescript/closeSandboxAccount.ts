import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

const { data, error } = await sandbox.POST('/sandbox/accounts/{account_id}/close', {
  params: { path: { account_id: process.env.ACCOUNT_ID! } },
  body: { reason: 'fraud' },
});
if (error) throw new Error(error.error.message);
console.log(data.id, data.status);
