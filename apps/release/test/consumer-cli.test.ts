// The packed `aggregation` command as an integrator meets it: `npm install` of its tarball (with the client and the
// types it needs) into an empty project outside the repository, then `npx aggregation ...` (the one-shot commands after
// `--help` through the bin npx finds, as npx runs it) on the machine's Node.js
// (20.19 or newer), on Node.js 22 (the npm package `node@22`, kept in the user's cache: support/node22.ts) and on the project's
// Node.js 24, against a sandbox server that `aggregation serve` runs once @aggregation/server is installed beside it.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { verifyWebhook } from '@aggregation/client';
import { machineNode, type Printed, printedBy, skipWhenMissing, stopsWithThisProcess } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { node22Bin } from './support/node22.ts';
import { cleanEnv, copyInstalledProject, run } from './support/project.ts';

/** A Node.js to run the command on: the folder whose `node` comes first on PATH. */
interface NodeRuntime {
  label: string;
  dir: string;
}

/** A long-running `npx aggregation ...` and what it printed. */
interface Running extends Printed {
  child: ChildProcess;
}

let project: string;
/** The runtimes by name, known once beforeAll has installed Node.js 22. */
const nodes = new Map<'machine' | 'node22' | 'project', NodeRuntime>();
const configDir = () => join(project, 'config');

/** Where the CLI runs for `runtime`: the project, with that Node.js first on PATH and a config file of its own. */
function optionsFor(runtime: NodeRuntime, extra: Record<string, string> = {}) {
  const env = cleanEnv({ AGGREGATION_CONFIG: join(configDir(), `${runtime.label}.json`), NO_COLOR: '1', ...extra }, runtime.dir);
  return { cwd: project, env };
}

/** `npx aggregation <args>` in the project, with `node` (and so npm) of `runtime` first on PATH. */
function npx(runtime: NodeRuntime, args: string[], extra: Record<string, string> = {}) {
  return { command: 'npx', args: ['--no-install', 'aggregation', ...args], options: optionsFor(runtime, extra) };
}

/**
 * The bin that npx finds, run as npx runs it (its `#!/usr/bin/env node` on the runtime's PATH), without npm: npm's own
 * start costs more CPU than the command's. For the one-shot commands after `--help` has shown npx finding it.
 */
function bin(runtime: NodeRuntime, args: string[]) {
  return { command: join(project, 'node_modules', '.bin', 'aggregation'), args, options: optionsFor(runtime) };
}

async function aggregation(
  runtime: NodeRuntime,
  args: string[],
  via: typeof npx | typeof bin = npx,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { command, args: argv, options } = via(runtime, args);
  return run(command, argv, options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

function start(runtime: NodeRuntime, args: string[]): Running {
  const { command, args: argv, options } = npx(runtime, args);
  // A process group of its own, as a terminal gives a command: Ctrl-C reaches npx and the command it runs. The whole
  // group is killed when the test process ends, however it ends (a failed or timed-out test, Ctrl-C, turbo stopping it).
  const spawned = spawn(command, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const child = stopsWithThisProcess(spawned, { group: true });
  return { child, ...printedBy(child, `aggregation ${args.join(' ')}`) };
}

/** Stops a long-running command as Ctrl-C would, its whole process group, and waits for it to finish. */
async function interrupt(running: Running): Promise<void> {
  if (running.child.exitCode !== null || running.child.signalCode !== null) return;
  const exited = once(running.child, 'exit');
  process.kill(-running.child.pid!, 'SIGINT');
  // Not a limit: what is still running is told, in case the test's own timeout ends the wait.
  const told = setTimeout(
    () => console.error(`still running a minute after Ctrl-C: ${running.child.spawnargs.join(' ')}\n${running.output()}`),
    60_000,
  );
  await exited;
  clearTimeout(told);
}

const machine = machineNode();
const skipMachineNode = skipWhenMissing("the CLI on the machine's Node.js", !machine && 'no node on PATH besides node_modules/.bin');

describe('the packed CLI, installed outside the repository', () => {
  let serve: Running;
  let baseUrl: string;
  let serveOutput = '';
  const project24 = (): NodeRuntime => ({ label: 'project', dir: dirname(process.execPath) });

  beforeAll(async () => {
    // The CLI (with the client, the types and the server) installed from their tarballs into a project of its own.
    project = await copyInstalledProject(inject('installedProject'), 'aggregation-cli-consumer-');
    await mkdir(configDir());
    if (machine) nodes.set('machine', { label: 'machine', dir: dirname(machine) });
    nodes.set('node22', { label: 'node22', dir: await node22Bin() });
    nodes.set('project', project24());
    // Without the server beside it (moved out of node_modules for this one run), `serve` says how to install it.
    const server = join(project, 'node_modules', '@aggregation', 'server');
    await rename(server, join(project, 'server-moved-out'));
    const missing = await aggregation(project24(), ['serve', '--port', '0']);
    serveOutput = `${missing.code} ${missing.stderr}`;
    // Then with the server back, as an integrator who installed it would have it.
    await rename(join(project, 'server-moved-out'), server);
    serve = start(project24(), ['serve', '--port', '0', '--database', join(project, 'sandbox.sqlite'), '--no-access-log']);
    baseUrl = (await serve.waitFor(/Listening on (http:\/\/\S+)/))[1]!;
  });

  afterAll(async () => {
    if (serve) await interrupt(serve);
    if (project) await rm(project, { recursive: true, force: true, maxRetries: 3 });
  });

  it('serve without @aggregation/server beside it says how to install it', () => {
    assert.match(
      serveOutput,
      /^1 Error: `aggregation serve` runs the sandbox server of @aggregation\/server, which is not installed beside this command\. Install it \(Node\.js 24\+\): npm install @aggregation\/server\n$/,
    );
  });

  it('serve with @aggregation/server beside it runs the sandbox server', async () => {
    assert.match(await serve.waitFor(/Sandbox access token: (test_token_\S+)/).then((match) => match[1]!), /^test_token_/);
    assert.equal((await fetch(`${baseUrl}/institutions`)).status, 200);
  });

  const runtimes = [
    { name: 'machine', title: "the machine's Node.js", skip: skipMachineNode },
    { name: 'node22', title: 'Node.js 22 (the npm package node@22)', skip: false },
    { name: 'project', title: `Node.js ${process.versions.node} (the project's)`, skip: false },
  ] as const;
  for (const { name, title, skip } of runtimes) {
    it.skipIf(skip)(
      `on ${title}: --help, enroll, listen --forward-to, trigger, deliveries, logs tail`,
      async () => {
        const node = nodes.get(name)!;
        const version = (await run(join(node.dir, 'node'), ['--version'])).stdout.trim();
        console.log(`# npx aggregation on Node.js ${version}`);
        const help = await aggregation(node, ['--help']);
        assert.equal(help.code, 0, help.stderr);
        assert.match(help.stdout, /Usage: aggregation[\s\S]*listen[\s\S]*Examples:/);

        const global = ['--base-url', baseUrl];
        const enrolled = await aggregation(node, [...global, 'enroll'], bin);
        assert.equal(enrolled.code, 0, enrolled.stderr);
        const token = /Access token: (test_token_\S+)/.exec(enrolled.stdout)?.[1];
        assert.ok(token, enrolled.stdout);
        assert.ok(!enrolled.stdout.includes('\u001b['), 'no colours outside a terminal');

        // A receiver that verifies what `listen` forwards with the secret it printed.
        let secret = '';
        const verified: string[] = [];
        const receiver: Server = createServer(async (request, response) => {
          const chunks: Buffer[] = [];
          for await (const chunk of request) chunks.push(chunk as Buffer);
          const event = await verifyWebhook(Buffer.concat(chunks), String(request.headers['service-signature']), secret).catch(() => undefined);
          if (event) verified.push(event.id);
          response.writeHead(event ? 204 : 400).end();
        });
        receiver.listen(0, '127.0.0.1');
        await once(receiver, 'listening');
        const forwardTo = `http://localhost:${(receiver.address() as AddressInfo).port}/webhooks`;
        const listen = start(node, [...global, 'listen', '--forward-to', forwardTo]);
        const tail = start(node, [...global, 'logs', 'tail', '--json']);
        try {
          secret = (await listen.waitFor(/signing secret is (whsec_\S+)/))[1]!;
          await tail.waitFor(/Tailing the request log/);
          const triggered = await aggregation(
            node,
            ['--base-url', baseUrl.replace('localhost', '127.0.0.1'), 'trigger', 'transactions.processed', '--json'],
            bin,
          );
          assert.equal(triggered.code, 0, triggered.stderr);
          const fired = JSON.parse(triggered.stdout) as { id: string };
          const [forwarded] = await listen.waitFor(new RegExp(`transactions\\.processed +${fired.id} -> .*`));
          assert.match(forwarded, /-> \[204\] POST /);
          assert.deepEqual(verified, [fired.id]);

          const deliveries = await aggregation(node, [...global, 'deliveries', '--json'], bin);
          assert.equal(deliveries.code, 0, deliveries.stderr);
          const delivery = (JSON.parse(deliveries.stdout) as { event_id: string; status: string }[]).find((entry) => entry.event_id === fired.id);
          assert.equal(delivery?.status, 'delivered');
          // The trigger's own request, as the server logged it for this token.
          await tail.waitFor(/"path":"\/sandbox\/webhook\/deliveries"/);
        } finally {
          await Promise.all([interrupt(listen), interrupt(tail)]);
          receiver.close();
        }
        await listen.waitFor(/the webhook URL is .* again/);
      },
      300_000,
    );
  }
});
