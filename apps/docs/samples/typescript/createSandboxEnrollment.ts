import { createSandboxClient } from '@aggregation/client';

// Enrolls a sandbox user; no access token needed for this one.
const sandbox = createSandboxClient({ baseUrl: process.env.AGGREGATION_BASE_URL });

const { data, error } = await sandbox.POST('/sandbox/enrollments', {
  body: { username: 'username', password: 'password' },
});
if (error) throw new Error(error.error.message);
console.log(
  data.access_token,
  data.accounts.map((account) => account.id),
);
