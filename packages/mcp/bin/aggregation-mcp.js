#!/usr/bin/env node
// The `aggregation-mcp` command: the program compiled into dist/. This file is not compiled, so that npm links the
// command when it installs the package, before a checkout has built anything.
import module from 'node:module';

// A host starts the server often: Node.js 22.1 and newer keep the compiled modules in a cache (in the system's temporary
// directory, or NODE_COMPILE_CACHE), which makes every start after the first one faster.
module.enableCompileCache?.();
try {
  await import('../dist/bin.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/bin.js')) throw error;
  console.error('The aggregation-mcp command is not built yet: run `npm run build` in the repository first.');
  process.exit(1);
}
