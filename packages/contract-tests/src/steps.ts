// Runs the named steps of a scripted journey: a step that throws, or an error answer that is not the one expected,
// becomes a problem of the suite instead of stopping the journey.
import { ApiError } from '@aggregation/client';

export class Steps {
  readonly problems: string[] = [];
  count = 0;

  /** Runs a step that must succeed; answers undefined (and records why) when it does not. */
  async ok<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
    this.count++;
    try {
      return await run();
    } catch (error) {
      this.problems.push(`${name}: ${describe(error)}`);
      return undefined;
    }
  }

  /** Runs a step that must fail with this status (and an error code starting with `code`, dot-separated). */
  async fails(name: string, run: () => Promise<unknown>, status: number, code?: string): Promise<void> {
    this.count++;
    try {
      await run();
      this.problems.push(`${name}: succeeded, expected ${status}${code ? ` ${code}` : ''}`);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        this.problems.push(`${name}: ${describe(error)}`);
        return;
      }
      const codeMatches = !code || error.code === code || error.code?.startsWith(`${code}.`);
      if (error.status !== status || !codeMatches) {
        this.problems.push(`${name}: answered ${error.status} ${error.code}, expected ${status}${code ? ` ${code}` : ''}`);
      }
    }
  }

  /** Records a problem when a condition about an answer does not hold. */
  expect(name: string, condition: boolean, detail: string): void {
    if (!condition) this.problems.push(`${name}: ${detail}`);
  }
}

function describe(error: unknown): string {
  if (error instanceof ApiError) return `answered ${error.status} ${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
