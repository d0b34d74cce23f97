import { createClient, createSandboxClient } from '@aggregation/client';

const token = process.env.AGGREGATION_TOKEN!;
const baseUrl = process.env.AGGREGATION_BASE_URL!;
const sandbox = createSandboxClient({ token, baseUrl });

// Follows the request log for 3 seconds (without timeout_seconds, until the stream is cancelled).
const { data, error } = await sandbox.GET('/sandbox/logs', {
  params: { query: { timeout_seconds: 3 } },
  parseAs: 'stream',
});
if (error || !data) throw new Error('the request log did not open');
// A request of this token, which shows up in the stream.
await createClient({ token, baseUrl }).accounts.list();

let buffered = '';
const decoder = new TextDecoder();
const reader = data.getReader();
for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
  buffered += decoder.decode(chunk.value, { stream: true });
  const lines = buffered.split('\n');
  buffered = lines.pop()!;
  for (const line of lines) {
    const entry = JSON.parse(line);
    console.log(entry.method, entry.path, entry.status, `${entry.duration_ms}ms`, entry.request_id);
  }
}
