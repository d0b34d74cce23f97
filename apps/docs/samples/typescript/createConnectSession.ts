import { createSandboxClient } from '@aggregation/client';

// The enrollment widget's steps take no access token: the application is named by its id.
const sandbox = createSandboxClient({ baseUrl: process.env.AGGREGATION_BASE_URL });

const { data, error } = await sandbox.POST('/sandbox/connect/sessions', {
  body: { application_id: process.env.APPLICATION_ID!, products: ['transactions'], select_account: 'multiple', nonce: 'n-8f3k2' },
});
if (error) throw new Error(error.error.message);
console.log(data.id, data.mode, data.step);
