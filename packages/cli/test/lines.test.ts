import assert from 'node:assert/strict';
import { test } from 'vitest';
import { linesUntil } from '../src/lines.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const collect = async (lines: AsyncIterable<string>) => {
  const seen: string[] = [];
  for await (const line of lines) seen.push(line);
  return seen;
};

test('yields each line once its newline arrives, across chunks and split characters, and skips blank ones', async () => {
  const euro = bytes('€');
  const chunks = [bytes('{"a":1}\n{"b"'), bytes(':2}\n\n  \n{"c":"'), euro.slice(0, 1), euro.slice(1), bytes('"}\nrest without newline')];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  assert.deepEqual(await collect(linesUntil(body, new Promise(() => undefined))), ['{"a":1}', '{"b":2}', '{"c":"€"}']);
});

test('a stop ends the reading while a read is pending that never settles, and cancels the body', async () => {
  // What an aborted fetch's body can do on Node.js 20: the pending read neither resolves nor rejects.
  let cancelled = false;
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls += 1;
        if (pulls === 1) controller.enqueue(bytes('{"first":true}\n'));
        return new Promise(() => undefined);
      },
      cancel() {
        cancelled = true;
        return new Promise(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const seen: string[] = [];
  for await (const line of linesUntil(body, stopped)) {
    seen.push(line);
    stop();
  }
  assert.deepEqual(seen, ['{"first":true}']);
  assert.equal(cancelled, true);
});
