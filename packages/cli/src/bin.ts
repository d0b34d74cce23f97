// The `aggregation` command (bin/aggregation.js loads it). On a Node.js older than the package supports, it says what it needs instead of failing
// on a missing API further on: the program is loaded only once the version is known to do.
import { unsupportedNodeMessage } from './node-version.ts';

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}
const { main } = await import('./program.ts');
await main(process.argv);
