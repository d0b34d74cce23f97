import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: process.env.BASE_URL,
});

const { data, error } = await sandbox.GET('/sandbox/clock');
if (error) throw new Error(error.error.message);
console.log(data.now, data.offset_seconds);
