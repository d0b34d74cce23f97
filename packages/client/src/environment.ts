// Reading an environment variable where the runtime has an environment: Node.js and Bun (the env of `process`), Deno
// (`Deno.env`, only when env access is already granted, so that reading never prompts). Browsers and workers have none.

type RuntimeGlobals = {
  process?: { env?: Record<string, string | undefined> };
  Deno?: {
    env: { get(name: string): string | undefined };
    permissions: { querySync(descriptor: { name: 'env'; variable: string }): { state: string } };
  };
};

/** The variable's value, or `undefined` where it is unset, the runtime has no environment, or reading it is not allowed. */
export function readEnvironment(name: string): string | undefined {
  const runtime = globalThis as RuntimeGlobals;
  try {
    if (runtime.Deno) {
      return runtime.Deno.permissions.querySync({ name: 'env', variable: name }).state === 'granted' ? runtime.Deno.env.get(name) : undefined;
    }
    return runtime.process?.env?.[name];
  } catch {
    return undefined;
  }
}
