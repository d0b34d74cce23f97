#!/usr/bin/env node
// `aggregation-sandbox` (`npx @aggregation/server`, and `npm start`): the sandbox server of main.ts, in a process with
// the server's V8 settings (v8-flags.ts). On an older Node.js it prints what it needs and exits, instead of a stack
// trace about a missing built-in module.
import { unsupportedNodeMessage } from './node-version.ts';
import { relaunchWithServerFlags } from './v8-flags.ts';

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}
relaunchWithServerFlags();
await import('./main.ts');
