// Time. Each enrollment has its own clock: real time plus an offset that only the sandbox
// control API moves, so an integrator can fast-forward one enrollment's world.
import type { EnrollmentRow } from '../storage/store.ts';

export const DAY_MS = 86_400_000;

export type Now = () => number;

export const enrollmentNow = (now: Now, enrollment: Pick<EnrollmentRow, 'clock_offset_ms'>): number => now() + enrollment.clock_offset_ms;

/** UTC calendar day of a time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

export const addDays = (day: string, days: number): string => dayOf(startOfDay(day) + days * DAY_MS);

/** Days between two YYYY-MM-DD dates. */
export const daysBetween = (from: string, to: string): number => Math.round((startOfDay(to) - startOfDay(from)) / DAY_MS);

export const isoTime = (ms: number): string => new Date(ms).toISOString();

/**
 * Epoch ms of an RFC 3339 date-time (already validated as one). A leap second (`23:59:60`), which
 * RFC 3339 allows and Date.parse does not, is the instant after `23:59:59`.
 */
export function parseDateTime(text: string): number {
  const leap = /^(.{16}):60(.*)$/.exec(text);
  return leap ? Date.parse(`${leap[1]}:59${leap[2]}`) + 1000 : Date.parse(text);
}
