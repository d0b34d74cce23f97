// Reading a streamed body line by line until the user stops it.

const STOPPED = Symbol('stopped');

/**
 * The lines of `body` as they arrive, until it ends or `stop` settles. A stop does not wait for the read in
 * progress: on Node.js 20 an aborted fetch can leave its body's pending read unsettled for good, and the command
 * would never end. The body is cancelled on the way out, however the reading ends.
 */
export async function* linesUntil(body: ReadableStream<Uint8Array>, stop: Promise<unknown>): AsyncGenerator<string> {
  const reader = body.getReader();
  const stopped = stop.then((): typeof STOPPED => STOPPED);
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), stopped]);
      if (chunk === STOPPED || chunk.done) return;
      buffered += decoder.decode(chunk.value, { stream: true });
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim()) yield line;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
