// The server started the ways people start it: `npm start` (the server package's start script) and the
// `aggregation-sandbox` bin (the built dist/bin.js, run by node as its shebang asks), each on a SQLite file of its
// own. Resolved once it prints `Listening on <url>`, with the pid of the process that serves: under npm that is a
// descendant of the npm process, the node that runs the bin (which may have replaced itself to take its V8 flags,
// keeping its pid).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { childPids, stopsWithThisProcess } from '@aggregation/test-support';

export type StartedAs = 'npm start' | 'aggregation-sandbox bin';

export interface CommandServer {
  url: string;
  /** The serving process. */
  pid: number;
  /** Its command line, as /proc shows it (the V8 flags it runs with). */
  commandLine: string;
  stop(): Promise<void>;
}

const serverPackage = fileURLToPath(new URL('../../packages/server/', import.meta.url));

function commandOf(as: StartedAs): [string, string[]] {
  if (as === 'aggregation-sandbox bin') return [process.execPath, [`${serverPackage}dist/bin.js`]];
  // npm itself under this Node (npm_execpath is set when the bench runs through npm).
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by npm for the scripts it runs
  const npm = process.env.npm_execpath;
  return npm ? [process.execPath, [npm, 'run', '--silent', 'start']] : ['npm', ['run', '--silent', 'start']];
}

const commandLineOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
};

const executableOf = (pid: number): string => {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return '';
  }
};

/** The first process under `root` (itself included) that is this Node running the server's bin (not a shell naming it). */
function serving(root: number): number | undefined {
  const node = realpathSync(process.execPath);
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (executableOf(pid) === node && /\bbin\.(ts|js)\b/.test(commandLineOf(pid))) return pid;
    queue.push(...childPids(pid));
  }
  return undefined;
}

export async function startCommandServer(as: StartedAs, databasePath: string, env: Record<string, string> = {}): Promise<CommandServer> {
  const [command, args] = commandOf(as);
  const child: ChildProcess = stopsWithThisProcess(
    spawn(command, args, {
      cwd: serverPackage,
      env: {
        ...process.env,
        // `node` in npm's scripts and in the bin's shebang is this Node.
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_PATH: databasePath,
        ACCESS_LOG: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own (npm, its shell, the server), killed whole with the bench, however the bench ends.
      detached: true,
    }),
    { group: true },
  );
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${as}: no "Listening on" within 120 s:\n${output.join('\n')}`)), 120_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /^Listening on (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`${as} exited with ${code}:\n${output.join('\n')}`));
    });
  });
  const pid = serving(child.pid!);
  if (pid === undefined) throw new Error(`${as}: no process running the server's bin under ${child.pid}`);
  return {
    url,
    pid,
    commandLine: commandLineOf(pid),
    async stop() {
      if (child.exitCode !== null) return;
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
