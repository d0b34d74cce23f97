// The `aggregation-mcp` command (bin/aggregation-mcp.js loads it). Anything it prints goes to stderr: over stdio,
// stdout is the protocol.
import { main } from './cli.ts';

try {
  await main(process.argv);
} catch (error) {
  process.stderr.write(`aggregation-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
