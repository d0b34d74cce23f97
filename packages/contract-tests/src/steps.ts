// Runs the named steps of a scripted journey: a step that throws, or an error answer that is not the one expected,
// becomes a problem of the suite instead of stopping the journey.
import { ApiError } from '@aggregation/client';

export class Steps {
  readonly problems: string[] = [];
  /** Each step by name, with its problem when it had one. */
  readonly results: { name: string; problem?: string }[] = [];
  count = 0;

  private done(name: string, problem?: string): void {
    this.results.push(problem === undefined ? { name } : { name, problem });
    if (problem !== undefined) this.problems.push(`${name}: ${problem}`);
  }

  /** Runs a step that must succeed; answers undefined (and records why) when it does not. */
  async ok<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
    this.count++;
    try {
      const value = await run();
      this.done(name);
      return value;
    } catch (error) {
      this.done(name, describe(error));
      return undefined;
    }
  }

  /** Runs a step that must fail with this status (and an error code starting with `code`, dot-separated). */
  async fails(name: string, run: () => Promise<unknown>, status: number, code?: string): Promise<void> {
    this.count++;
    try {
      await run();
      this.done(name, `succeeded, expected ${status}${code ? ` ${code}` : ''}`);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        this.done(name, describe(error));
        return;
      }
      const codeMatches = !code || error.code === code || error.code?.startsWith(`${code}.`);
      this.done(
        name,
        error.status !== status || !codeMatches ? `answered ${error.status} ${error.code}, expected ${status}${code ? ` ${code}` : ''}` : undefined,
      );
    }
  }

  /** Records a problem when a condition about an answer does not hold. */
  expect(name: string, condition: boolean, detail: string): void {
    this.done(`${name} (as expected)`, condition ? undefined : detail);
  }
}

function describe(error: unknown): string {
  if (error instanceof ApiError) return `answered ${error.status} ${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
