// Money strings (`-12.34`) as integer cents, so that sums are exact.
export function cents(money: unknown): number | undefined {
  if (typeof money !== 'string') return undefined;
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(money);
  if (!match) return undefined;
  const value = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -value : value;
}

/** A payment request's amount (`180`, `25.5`, `25.00`) as integer cents. */
export function requestedCents(amount: unknown): number | undefined {
  const match = typeof amount === 'string' ? /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount) : null;
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
}

export const money = (value: number) => `${value < 0 ? '-' : ''}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;
