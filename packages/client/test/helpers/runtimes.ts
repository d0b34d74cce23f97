// The runtimes the client is tested on, beside the Node.js 24 running the tests: their binaries come from npm
// packages. Bun, Deno and workerd are devDependencies (`bun`, `deno`, `workerd`: each links the binary of its platform
// package, `@oven/bun-<platform>`, `@deno/<platform>`, `@cloudflare/workerd-<platform>`, into node_modules/.bin).
// Node.js 20.19 and 22.12, the oldest releases the package supports, are installed from the `node` package on first
// use into the user's cache (test-support's `registryNodeBin`: they cannot sit in node_modules beside the project's
// Node.js 24, whose `node` bin they would replace).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { registryNodeBin } from '@aggregation/test-support';
import { build } from 'esbuild';
import { repoRoot } from './prism.ts';

const bin = join(repoRoot, 'node_modules', '.bin');

/** A binary of node_modules/.bin, or undefined when its package is not installed. */
export function packageBinary(name: 'bun' | 'deno' | 'workerd'): string | undefined {
  const path = join(bin, name);
  return existsSync(path) ? path : undefined;
}

/** Node.js `version`'s binary, installed from the registry's `node` package the first time. */
export async function nodeRuntime(version: string): Promise<string> {
  return join(await registryNodeBin(version), 'node');
}

/** The scenario bundled by esbuild for `platform`, as one ES module. */
export async function bundleScenario(entry: 'entry-cli.ts' | 'entry-worker.ts' | 'entry-browser.ts', platform: 'node' | 'browser'): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, '..', 'runtimes', entry)],
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    // A bundle that imports `node:` modules from ESM needs `require` for the CommonJS ones it holds (undici).
    ...(platform === 'node' ? { banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } } : {}),
  });
  return result.outputFiles[0]!.text;
}

/** workerd's configuration: the worker `worker.js` beside it, served on a unix socket, with loopback reachable. */
export function workerdConfig(socket: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "unix:${socket}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "internet",
);
`;
}
