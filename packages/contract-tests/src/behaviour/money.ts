// Money strings (`-12.34`) as integer cents, so that sums are exact.
export function cents(money: unknown): number | undefined {
  if (typeof money !== 'string') return undefined;
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(money);
  if (!match) return undefined;
  const value = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -value : value;
}

export const money = (value: number) => `${value < 0 ? '-' : ''}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;
