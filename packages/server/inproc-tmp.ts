import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from './src/index.ts';
const app = createApp({ databasePath: join(mkdtempSync(join(tmpdir(), 'inproc-')), 's.sqlite'), webhooks: { autostart: false } });
const res = await app.request('/sandbox/enrollments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'username', password: 'password' }) });
const body = await res.json() as any;
const auth = { authorization: `Basic ${Buffer.from(`${body.access_token}:`).toString('base64')}` };
const checking = body.accounts.find((a: any) => a.subtype === 'checking').id;
const time = async (name: string, path: string, n: number) => {
  for (let i = 0; i < 200; i++) await (await app.request(path, { headers: auth })).text();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await (await app.request(path, { headers: auth })).text();
  const c = process.cpuUsage(c0);
  console.log(name, ((c.user + c.system) / n).toFixed(1), 'µs CPU per request (in process)');
};
for (let r = 0; r < 2; r++) {

  await time('page of 100', `/accounts/${checking}/transactions?count=100`, 2000);
}
console.log('rows', app.runtime.renderedRows.hits, app.runtime.renderedRows.misses);
await app.close();
