import { createSandboxClient } from '@aggregation/client';

// Creates an application; no access token needed. Keep its key, which is shown only here.
const sandbox = createSandboxClient({ baseUrl: process.env.AGGREGATION_BASE_URL });

const { data, error } = await sandbox.POST('/sandbox/applications', { body: {} });
if (error) throw new Error(error.error.message);

// Enrollments made with the key belong to the new application.
const owned = createSandboxClient({ applicationKey: data.key, baseUrl: process.env.AGGREGATION_BASE_URL });
const enrolled = await owned.POST('/sandbox/enrollments', {
  body: { username: 'username', password: 'password' },
});
if (enrolled.error) throw new Error(enrolled.error.error.message);
console.log(data.application.id, enrolled.data.access_token);
