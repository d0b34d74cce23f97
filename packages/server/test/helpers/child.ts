// A server in a child process (`node <entry>`), resolved once it prints `Listening on <url>`: for tests that run
// several processes on one database, or that kill one.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface ListeningChild {
  child: ChildProcess;
  url: string;
  /** Every line it printed, stdout and stderr. */
  output: string[];
  /** Resolves with the exit code once it is gone. */
  exited: Promise<unknown[]>;
}

export async function startListening(entry: string, options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<ListeningChild> {
  const child = spawn(process.execPath, [entry], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Listening on" within 30 s: ${output.join('\n')}`)), 30_000);
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
      reject(new Error(`exited with ${code}: ${output.join('\n')}`));
    });
  });
  return { child, url, output, exited };
}
