import { createSandboxClient } from '@aggregation/client';

const sandbox = createSandboxClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
});

const { data, error } = await sandbox.POST('/sandbox/webhook/deliveries/{delivery_id}/redeliver', {
  params: { path: { delivery_id: process.env.DELIVERY_ID! } },
});
if (error) throw new Error(error.error.message);
console.log(`Redelivering ${data.event_id} as ${data.id}`);
