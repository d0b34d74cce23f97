// Runs the contract tests' command as a user does (a .js or .ts file with this Node.js, or an installed bin),
// collecting its output; resolves with its exit code whatever it is.
import { execFile } from 'node:child_process';

export function runBin(bin: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const [file, rest] = bin.endsWith('.js') || bin.endsWith('.ts') ? [process.execPath, [bin, ...args]] : [bin, args];
  return new Promise((resolve) => {
    execFile(file, rest, { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GITHUB_STEP_SUMMARY: '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}
