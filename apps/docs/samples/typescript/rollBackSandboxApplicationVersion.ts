import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

// Within 72 hours of an upgrade; afterwards 422 application_version.rollback_expired.
const { data, error } = await sandbox.POST('/sandbox/application/version/rollback');
if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
console.log(data.default_version);
