// The peer: the Prism mock (started by @aggregation/mock as a child of this process), with its pid, so that its
// RSS and CPU are measured like any other target's.
import { type MockOptions, type Running, startMock } from '@aggregation/mock';
import { childPids } from './proc.ts';

export type Peer = { mock: Running; pid: number | undefined };

export async function startPeer(options: MockOptions): Promise<Peer> {
  const children = new Set(childPids());
  const mock = await startMock(options);
  return { mock, pid: childPids().find((pid) => !children.has(pid)) };
}
