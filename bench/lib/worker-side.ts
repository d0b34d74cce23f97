// The child's half of lib/child.ts: announce readiness, answer calls, stop on request.
type Handler = (payload: unknown) => unknown;

export function childArgs<T>(): T {
  return JSON.parse(process.argv[2] ?? '{}') as T;
}

export function serveParent(info: unknown, handlers: Record<string, Handler>, stop: () => Promise<void> | void): void {
  process.on('message', async (message: { id: number; type: string; payload?: unknown }) => {
    if (message.type === 'stop') {
      await stop();
      process.disconnect?.();
      // Exit normally (not by signal) so that --cpu-prof writes its profile.
      process.exit(0);
    }
    const handler = handlers[message.type];
    try {
      if (!handler) throw new Error(`no handler for ${message.type}`);
      process.send!({ id: message.id, result: await handler(message.payload) });
    } catch (error) {
      process.send!({ id: message.id, error: (error as Error).stack ?? String(error) });
    }
  });
  // If the harness dies, don't linger.
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', info });
}
