import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: process.env.BASE_URL,
});

const { data, error } = await sandbox.GET('/sandbox/application');
if (error) throw new Error(error.error.message);
console.log(data.id, data.default_version);
