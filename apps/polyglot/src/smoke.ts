// The one smoke scenario every generated client runs against the sandbox server, in its own language: each program
// reads AGGREGATION_BASE_URL and AGGREGATION_TOKEN (a fresh enrollment of the healthy sandbox user) and prints one
// line per step, `step <name>: ok <what it saw>` or `step <name>: fail <why>`, exiting non-zero when one failed.
import { RunError, run } from './run.ts';

export const smokeSteps = {
  accounts: 'lists the accounts',
  transactions: 'pages the transactions with count and from_id, the pages adding up to the unpaged list',
  balances: 'reads the balances',
  payment_mfa: 'a payment with memo mfa answers 200 with the MFA challenge, read by the client',
  payment: 'a payment answers 202 with the Payment, read by the client',
  payee_mfa: 'a payee named mfa answers 200 with the MFA challenge, read by the client',
  payee: 'a payee is created (200 with the Payee), read by the client',
  error: 'an unknown account answers 404, its body read as the Error model',
} as const;
export type SmokeStep = keyof typeof smokeSteps;

export type SmokeCommand = { file: string; args: readonly string[]; cwd?: string; env?: NodeJS.ProcessEnv };
export type SmokeOutcome = { output: string; steps: Partial<Record<SmokeStep, { ok: boolean; detail: string }>> };

/** A fresh enrollment of the healthy sandbox user: its access token. */
export async function enroll(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/sandbox/enrollments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'username', password: 'password' }),
  });
  if (response.status !== 201) throw new Error(`POST /sandbox/enrollments: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Reads a program's step lines; a step it printed no line for is missing from `steps`. */
export function parseSteps(output: string): SmokeOutcome['steps'] {
  const steps: SmokeOutcome['steps'] = {};
  for (const match of output.matchAll(/^step (\w+): (ok|fail)\b ?(.*)$/gm)) {
    if (match[1]! in smokeSteps) steps[match[1] as SmokeStep] = { ok: match[2] === 'ok', detail: match[3]! };
  }
  return steps;
}

/** Runs a smoke program on a fresh enrollment; a failed step makes it exit non-zero, and its lines still tell which. */
export async function runSmoke(command: SmokeCommand, baseUrl: string): Promise<SmokeOutcome> {
  const token = await enroll(baseUrl);
  const env = { ...process.env, ...command.env, AGGREGATION_BASE_URL: baseUrl, AGGREGATION_TOKEN: token };
  let output: string;
  try {
    const { stdout, stderr } = await run(command.file, command.args, { cwd: command.cwd, env });
    output = `${stdout}${stderr}`;
  } catch (error) {
    if (!(error instanceof RunError)) throw error;
    output = `${error.stdout}${error.stderr}`;
  }
  return { output, steps: parseSteps(output) };
}

/** Passed and failed steps; a step without a line counts as failed. */
export function countSteps(steps: SmokeOutcome['steps']): { passed: number; failed: number } {
  const passed = Object.values(steps).filter((step) => step.ok).length;
  return { passed, failed: Object.keys(smokeSteps).length - passed };
}
