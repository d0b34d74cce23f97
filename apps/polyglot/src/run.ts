// Runs a program without a shell and collects its output; a non-zero exit is an error that shows that output.
import { execFile } from 'node:child_process';

/**
 * `timeoutMs` kills a program that should answer by then (a smoke program against a server); without it a program
 * runs to its end, however long a loaded machine makes it (installing a virtualenv, building a client).
 */
export type RunOptions = { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number };
export type RunResult = { stdout: string; stderr: string };

export class RunError extends Error {
  readonly stdout: string;
  readonly stderr: string;
  constructor(command: string, code: number | string | null, stdout: string, stderr: string) {
    super(`${command} failed (${code})\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
    this.stdout = stdout;
    this.stderr = stderr;
  }
}

export function run(file: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 0, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code ?? error.signal ?? null;
          reject(new RunError([file, ...args].join(' '), code as string | null, String(stdout), String(stderr)));
        } else resolve({ stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}
