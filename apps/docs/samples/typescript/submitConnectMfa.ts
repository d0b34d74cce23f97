import { createSandboxClient } from '@aggregation/client';

// The enrollment widget's steps take no access token: the application is named by its id.
const sandbox = createSandboxClient({ baseUrl: process.env.AGGREGATION_BASE_URL });

const { data, error } = await sandbox.POST('/sandbox/connect/sessions/{session_id}/mfa', {
  params: { path: { session_id: process.env.SESSION_ID! } },
  body: { application_id: process.env.APPLICATION_ID!, code: '1234' },
});
if (error) throw new Error(error.error.message);
console.log(data.step);
