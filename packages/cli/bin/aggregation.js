#!/usr/bin/env node
// The `aggregation` command: the program compiled into dist/. This file is not compiled, so that npm links the
// command when it installs the package, before a checkout has built anything.
try {
  await import('../dist/bin.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/bin.js')) throw error;
  console.error('The aggregation command is not built yet: run `npm run build` (or `npm start`) in the repository first.');
  process.exit(1);
}
