// The consumer contract tests' recording proxy (what `aggregation-contract-tests consumer` puts in front of the API)
// in a process of its own, in front of the server under test: it records every exchange as in a run, with no fault.
import { startRecorder } from '../../packages/contract-tests/src/recorder.ts';
import { childArgs, serveParent } from '../lib/worker-side.ts';

const { upstream } = childArgs<{ upstream: string }>();
const recorder = await startRecorder(upstream, { intercept: () => undefined });

serveParent(
  { url: recorder.url, pid: process.pid },
  {
    // What a run keeps grows with its requests; a load of many is not a run, so the bench empties it between loads.
    recorded: () => {
      const count = recorder.exchanges.length;
      recorder.exchanges.length = 0;
      return count;
    },
  },
  () => recorder.close(),
);
