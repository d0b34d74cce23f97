import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
for (let i = 0; i < 4; i++) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['packages/mcp/bin/aggregation-mcp.js'],
    env: { AGGREGATION_TOKEN: 'test_token_x', PATH: process.env.PATH },
    stderr: 'pipe',
  });
  const client = new Client({ name: 't', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  console.log(tools.length, (performance.now() - t0).toFixed(0), 'ms wall', cpu(transport.pid), 'ms cpu');
  await client.close();
}
