// A server in a child process (`node <entry>`), resolved once it prints `Listening on <url>`: for tests that run
// several processes on one database, or that kill one.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { exitWithParent, stopsWithThisProcess } from '@aggregation/test-support';

export interface ListeningChild {
  child: ChildProcess;
  url: string;
  /** Every line it printed, stdout and stderr. */
  output: string[];
  /** Resolves with the exit code once it is gone. */
  exited: Promise<unknown[]>;
}

export async function startListening(entry: string, options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<ListeningChild> {
  // Stopped with the test process, however it ends; it ends itself if that was SIGKILL.
  const child = stopsWithThisProcess(
    spawn(process.execPath, [...exitWithParent, entry], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const exited = once(child, 'exit');
  // Ready when it says so, however long a loaded machine takes; a child that exits first fails the start.
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /^Listening on (\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then(([code]) => reject(new Error(`exited with ${code}: ${output.join('\n')}`)));
  });
  return { child, url, output, exited };
}
