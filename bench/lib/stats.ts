// Small numeric helpers: medians over rounds, ratios, and formatting for the tables.

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median of one field over rounds of records. */
export function medianOf<T>(rounds: T[], pick: (round: T) => number): number {
  return median(rounds.map(pick));
}

export function fmtInt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

export function fmtMs(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toString();
}

export function fmtMb(bytes: number): string {
  return Number.isFinite(bytes) ? (bytes / 1024 / 1024).toFixed(1) : 'n/a';
}

export function fmtRatio(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 10 ? `${value.toFixed(1)}×` : `${value.toFixed(2)}×`;
}

export function fmtPercent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)} %` : 'n/a';
}

export function fmtSeconds(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s` : 'n/a';
}
