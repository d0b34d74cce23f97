// Time. Each enrollment has its own clock: real time plus an offset that only the sandbox
// control API moves, so an integrator can fast-forward one enrollment's world.
import type { EnrollmentRow } from '../storage/store.ts';

export const DAY_MS = 86_400_000;

export type Now = () => number;

export const enrollmentNow = (now: Now, enrollment: Pick<EnrollmentRow, 'clock_offset_ms'>): number =>
  now() + enrollment.clock_offset_ms;

/** UTC calendar day of a time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

export const addDays = (day: string, days: number): string => dayOf(startOfDay(day) + days * DAY_MS);

export const isoTime = (ms: number): string => new Date(ms).toISOString();
