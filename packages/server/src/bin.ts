#!/usr/bin/env node
// `aggregation-sandbox` (`npx @aggregation/server`): the sandbox server of main.ts. On an older Node.js it prints
// what it needs and exits, instead of a stack trace about a missing built-in module.
import { unsupportedNodeMessage } from './node-version.ts';

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}
await import('./main.ts');
