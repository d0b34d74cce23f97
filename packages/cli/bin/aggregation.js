#!/usr/bin/env node
// The `aggregation` command. Its sources are TypeScript, which Node runs as such from 24 on: the Node that `npm ci`
// installs into node_modules, and that `npx aggregation` and npm scripts put first on PATH.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(`aggregation needs Node 24 or newer (this is ${process.version}); run it as \`npx aggregation\` from the repository.`);
  process.exit(1);
}
const { main } = await import('../src/program.ts');
await main(process.argv);
