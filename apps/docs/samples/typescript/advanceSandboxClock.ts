import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

const { data, error } = await sandbox.POST('/sandbox/clock/advance', {
  body: { days: 1 },
});
if (error) throw new Error(error.error.message);
console.log(data.now);
