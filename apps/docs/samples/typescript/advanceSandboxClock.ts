import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: process.env.BASE_URL,
});

const { data, error } = await sandbox.POST('/sandbox/clock/advance', {
  body: { days: 1 },
});
if (error) throw new Error(error.error.message);
console.log(data.now);
