import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

const { data, error } = await sandbox.POST('/sandbox/application/version', {
  body: { version: '2020-10-12' },
});
if (error) throw new Error(error.error.message);
console.log(data.default_version, data.rollback_until);
