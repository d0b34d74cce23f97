import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

// A new secret signs from now on; the current one signs too for one more day.
const expireCurrentAt = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
const { data, error } = await sandbox.POST('/sandbox/webhook/secrets', {
  body: { expire_current_at: expireCurrentAt },
});
if (error) throw new Error(error.error.message);
for (const secret of data.secrets) console.log(secret.id, secret.expires_at);
