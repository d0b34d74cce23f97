import { createSandboxClient } from '@aggregation/client';

// The enrollment widget's steps take no access token: the application is named by its id.
const sandbox = createSandboxClient({ baseUrl: process.env.AGGREGATION_BASE_URL });

// Grants only the account the user chose among those the session offered.
const { data, error } = await sandbox.POST('/sandbox/connect/sessions/{session_id}/accounts', {
  params: { path: { session_id: process.env.SESSION_ID! } },
  body: { application_id: process.env.APPLICATION_ID!, account_ids: [process.env.ACCOUNT_ID!] },
});
if (error) throw new Error(error.error.message);
if (data.result && 'access_token' in data.result) console.log(data.result.access_token, data.result.accounts.length);
