import { createSandboxClient } from '@aggregation/client';

// The enrollment widget's steps take no access token: the application is named by its id.
const sandbox = createSandboxClient({ baseUrl: process.env.AGGREGATION_BASE_URL });

const { data, error } = await sandbox.POST('/sandbox/connect/sessions/{session_id}/credentials', {
  params: { path: { session_id: process.env.SESSION_ID! } },
  body: { application_id: process.env.APPLICATION_ID!, institution_id: 'chase', username: 'username', password: 'password' },
});
if (error) throw new Error(error.error.message);
// Without a one-time code to ask or accounts to choose, the session is done: the result holds the new access token.
if (data.result && 'access_token' in data.result) console.log(data.step, data.result.enrollment.id, data.result.access_token);
