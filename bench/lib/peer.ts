// The peer: the Prism mock (started by @aggregation/mock as a child of this process), with its pid, so that its
// RSS and CPU are measured like any other target's. Killed with the bench, however it ends (Ctrl-C, SIGTERM).
import { type MockOptions, type Running, startMock } from '@aggregation/mock';
import { childPids, stopOnExit } from '@aggregation/test-support';

export type Peer = { mock: Running; pid: number | undefined };

export async function startPeer(options: MockOptions): Promise<Peer> {
  const children = new Set(childPids());
  const mock = await startMock(options);
  const pid = childPids().find((candidate) => !children.has(candidate));
  if (pid === undefined) return { mock, pid };
  const forget = stopOnExit(() => process.kill(pid, 'SIGKILL'));
  const stop = async () => {
    await mock.stop();
    forget();
  };
  return { mock: { ...mock, stop }, pid };
}
