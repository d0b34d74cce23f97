#!/usr/bin/env node
// `npm run mock -- [--version <a version date, or sandbox; the current version by default>] [--port 4010] [--dynamic]`
import { parseArgs } from 'node:util';
import { type DocumentName, documentNames } from '@aggregation/openapi/contract';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { defaultMockPort, startMock } from './index.ts';

const { values } = parseArgs({
  options: {
    version: { type: 'string', default: CURRENT_VERSION },
    port: { type: 'string', default: process.env.MOCK_PORT ?? String(defaultMockPort) },
    host: { type: 'string', default: '127.0.0.1' },
    dynamic: { type: 'boolean', default: false },
  },
});

if (!documentNames.includes(values.version as DocumentName)) {
  console.error(`Unknown document "${values.version}". Choose one of: ${documentNames.join(', ')}.`);
  process.exit(2);
}

const mock = await startMock({
  version: values.version as DocumentName,
  port: Number(values.port),
  host: values.host,
  dynamic: values.dynamic,
});
console.log(`Prism mock of ${values.version} listening on ${mock.url}`);
console.log(`  curl -u test_token_example: ${mock.url}/accounts`);
console.log(`  curl -u test_token_example: -H 'Prefer: code=404' ${mock.url}/accounts/acc_1/details`);
const shutdown = () => void mock.stop().then(() => process.exit(0));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
