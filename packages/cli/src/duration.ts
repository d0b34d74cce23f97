// `3d`, `12h`, `1d12h`, `90m`, `30s`: a span of the sandbox clock, as the days and seconds that
// `POST /sandbox/clock/advance` takes.
import { InvalidArgumentError } from 'commander';

const UNIT_SECONDS: Record<string, number> = { d: 86_400, h: 3_600, m: 60, s: 1 };

export interface ClockAdvance {
  days: number;
  seconds: number;
}

export function parseDuration(text: string): ClockAdvance {
  const parts = /^(?:\d+[dhms])+$/.test(text) ? [...text.matchAll(/(\d+)([dhms])/g)] : [];
  if (parts.length === 0) throw new InvalidArgumentError('expected a duration such as 3d, 12h, 1d12h, 90m or 30s.');
  let days = 0;
  let seconds = 0;
  for (const [, amount, unit] of parts) {
    if (unit === 'd') days += Number(amount);
    else seconds += Number(amount) * UNIT_SECONDS[unit!]!;
  }
  if (days === 0 && seconds === 0) throw new InvalidArgumentError('the duration must be longer than zero.');
  return { days, seconds };
}
