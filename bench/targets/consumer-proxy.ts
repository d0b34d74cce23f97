// The API of a consumer run as `aggregation-contract-tests consumer` lays it out: the sandbox server started in the
// command's own process on a fresh SQLite file, with its recording proxy in front of it in that same process. The
// bench loads the server straight and through the proxy; the proxy records every exchange as in a run, with no fault.
import { startRecorder } from '../../packages/contract-tests/src/recorder.ts';
import { startLocalServer } from '../../packages/contract-tests/src/target.ts';
import { enroll } from '../lib/enroll.ts';
import { serveParent } from '../lib/worker-side.ts';

const server = await startLocalServer();
const recorder = await startRecorder(server.baseUrl, { intercept: () => undefined });
const { authorization } = await enroll(server.baseUrl, 'username');

serveParent(
  { server: server.baseUrl, proxy: recorder.url, authorization, pid: process.pid },
  {
    // What a run keeps grows with its requests; a load of many is not a run, so the bench empties it between loads.
    recorded: () => {
      const count = recorder.exchanges.length;
      recorder.exchanges.length = 0;
      return count;
    },
  },
  async () => {
    await recorder.close();
    await server.close();
  },
);
