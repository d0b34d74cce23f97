// The READMEs as a new user follows them: a fresh clone of this repository, `npm ci`, `npm start` (on a free port),
// then, from a second terminal, every shell block of the READMEs below that is not marked
// `<!-- readme-test: skip: <reason> -->`, in order, as printed: the CLI, the client's examples, curl and the mock.
// Commands that keep running (npm start, listen, a receiver, logs tail, a mock, serve) run in the background until the
// README's next section, each once it printed that it is ready; the webhook walkthrough must end with the receiver
// printing the event it verified. What differs from the text, and only that: the ports (3000, 4242, 4010 and 4011
// become free ones, AGGREGATION_BASE_URL names the server) and the placeholders `test_token_...` and `whsec_...`,
// which become the token `npm start` printed and the secret `listen` printed.
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { type Printed, printedBy } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type ShellBlock, shellBlocks } from '../src/blocks.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
/** The READMEs whose blocks talk to the server, each run in its own folder. */
const readmes = ['README.md', 'packages/cli/README.md', 'packages/client/README.md'];
const work = mkdtempSync(join(tmpdir(), 'readme-flows-'));
const clone = join(work, 'aggregation');

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** A new user's shell: none of this test's npm settings, no node_modules/.bin on PATH (their own Node.js first). */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|NODE_OPTIONS$|INIT_CWD$|TURBO_|VITEST)/i.test(key)));
  const path = (env.PATH ?? '').split(delimiter).filter((dir) => dir && !dir.includes('node_modules'));
  return { ...env, PATH: path.join(delimiter), NO_COLOR: '1', CI: '', ...extra };
}

interface Running extends Printed {
  command: string;
  child: ChildProcess;
}

/** A command in a shell of its own process group, as a terminal runs it (Ctrl-C reaches all of it). */
function startShell(command: string, cwd: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return { command, child, ...printedBy(child, `\`${command}\``) };
}

async function interrupt(running: Running): Promise<void> {
  if (running.child.exitCode !== null || running.child.signalCode !== null) return;
  // Its exit, not the end of its output: a daemon it started (turbo's) may hold the pipes open.
  const closed = once(running.child, 'exit');
  try {
    process.kill(-running.child.pid!, 'SIGINT');
  } catch {
    return;
  }
  await closed;
}

/** The commands that keep running, and the line each prints once it is ready (what it captures, if anything). */
const longRunning: { command: RegExp; ready: RegExp; captures?: 'secret' }[] = [
  { command: /\baggregation listen\b/, ready: /signing secret is (whsec_\S+)/, captures: 'secret' },
  { command: /\baggregation logs tail\b/, ready: /Tailing the request log/ },
  { command: /\baggregation serve\b/, ready: /Listening on / },
  { command: /examples\/webhook-[\w-]+\.ts\b/, ready: /Listening on / },
  { command: /^npm run mock\b|\baggregation-mock\b/, ready: /listening on / },
];

/** What a section must have shown once its blocks ran, by README and section. */
const expectations: Record<string, (background: Running[]) => Promise<void>> = {
  'README.md#From a clone to a verified webhook': async (background) => {
    const receiver = background.find((running) => /webhook-hono\.ts/.test(running.command));
    const listen = background.find((running) => /aggregation listen/.test(running.command));
    assert.ok(receiver && listen, 'the walkthrough starts listen and the receiver');
    // The receiver verified the event listen forwarded (the example prints `N new` for transactions.processed).
    await receiver.waitFor(/^\d+ new$/m);
    await listen.waitFor(/transactions\.processed +evt_\w+ -> \[204\]/);
  },
};

describe('the READMEs, followed on a fresh clone', () => {
  let server: Running;
  const ports: Record<string, number> = {};
  const captured: { token?: string; secret?: string } = {};
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    for (const name of ['server', 'receiver', 'mock', 'mock2', 'serve']) ports[name] = await freePort();
    const run = promisify(execFile);
    await run('git', ['clone', '--quiet', repoRoot, clone]);
    env = userEnv({
      AGGREGATION_BASE_URL: `http://localhost:${ports.server}`,
      AGGREGATION_CONFIG: join(work, 'config.json'),
      // `npm run mock` without --port: its default port, 4010, as this run's.
      MOCK_PORT: String(ports.mock),
    });
    const installed = await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: clone, env, maxBuffer: 64 * 1024 * 1024 });
    console.log(`# npm ci on ${(await run('node', ['--version'], { env })).stdout.trim()}:\n${installed.stdout}${installed.stderr}`);
    server = startShell('npm start', clone, { ...env, PORT: String(ports.server) });
    captured.token = (await server.waitFor(/Sandbox access token: (test_token_\S+)/))[1]!;
    // Longer than the hang guard: npm ci of the whole clone and npm start's first build, on 2 shared cores.
  }, 1_800_000);

  afterAll(async () => {
    if (server) await interrupt(server);
    // The daemon `npm start`'s turbo may have started (not under CI) goes with the clone.
    await promisify(execFile)(join(clone, 'node_modules', '.bin', 'turbo'), ['daemon', 'stop'], { cwd: clone, env }).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  });

  /** The command as it runs here: the README's ports as this run's, the placeholders as what was printed. */
  const asRun = (command: string): string =>
    command
      .replace(/\b(localhost|127\.0\.0\.1):3000\b/g, `$1:${ports.server}`)
      .replace(/\b4242\b/g, String(ports.receiver))
      .replace(/\b4010\b/g, String(ports.mock))
      .replace(/\b4011\b/g, String(ports.mock2))
      .replaceAll('test_token_...', captured.token ?? 'test_token_...')
      .replaceAll('whsec_...', captured.secret ?? 'whsec_...');

  for (const readme of readmes) {
    const blocks = shellBlocks(readFileSync(join(repoRoot, readme), 'utf8'));
    const cwd = () => join(clone, readme.split('/').slice(0, -1).join('/'));
    test(`${readme}: every block not marked as skipped runs as printed`, async () => {
      let background: Running[] = [];
      let section: string | undefined;
      const endSection = async () => {
        const expectation = section === undefined ? undefined : expectations[`${readme}#${section}`];
        try {
          await expectation?.(background);
        } finally {
          await Promise.all(background.map(interrupt));
          background = [];
        }
      };
      const ran: ShellBlock[] = [];
      try {
        for (const block of blocks) {
          if (block.skip) continue;
          if (block.section !== section) {
            await endSection();
            section = block.section;
          }
          for (const command of block.commands) {
            const text = asRun(command);
            const rule = longRunning.find((entry) => entry.command.test(command));
            const blockEnv = /\baggregation serve\b/.test(command)
              ? { ...env, PORT: String(ports.serve), DATABASE_PATH: join(work, 'serve.sqlite') }
              : env;
            const running = startShell(text, cwd(), blockEnv);
            if (rule) {
              const ready = await running.waitFor(rule.ready);
              if (rule.captures) captured[rule.captures] = ready[1]!;
              background.push(running);
            } else {
              const [code] = await once(running.child, 'close');
              assert.equal(code, 0, `${readme}:${block.line} \`${text}\` exited with ${code}:\n${running.output()}`);
            }
          }
          ran.push(block);
        }
        await endSection();
      } finally {
        // Whatever still runs stops, also after a failure.
        await Promise.all(background.map(interrupt));
      }
      console.log(`# ${readme}: ${ran.length} blocks run, ${blocks.filter((block) => block.skip).length} marked as not run`);
      assert.ok(ran.length > 0);
    });
  }
});
