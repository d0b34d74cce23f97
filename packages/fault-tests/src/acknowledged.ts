// What a load was told was done, and the checks that none of it was lost: each payment answered 202 is listed once
// among its account's payments, and each event answered 202 reached the receiver (at least once: delivery may repeat
// an event, so ids count, not arrivals). The crash test and the benchmarks' soak run check their loads with it.

export class Acknowledged {
  /** Payment ids answered 202, by the account that paid. */
  readonly payments = new Map<string, Set<string>>();
  /** Event ids answered 202. */
  readonly events = new Set<string>();

  payment(accountId: string, paymentId: string): void {
    const ids = this.payments.get(accountId) ?? new Set<string>();
    ids.add(paymentId);
    this.payments.set(accountId, ids);
  }

  event(eventId: string): void {
    this.events.add(eventId);
  }

  get paymentCount(): number {
    let count = 0;
    for (const ids of this.payments.values()) count += ids.size;
    return count;
  }
}

/** Of an account's acknowledged payments, those its stored list lacks; and the ids the list holds twice. */
export function paymentsLost(acknowledged: Iterable<string>, stored: readonly string[]): { lost: string[]; listedTwice: string[] } {
  const listed = new Set<string>();
  const listedTwice = new Set<string>();
  for (const id of stored) (listed.has(id) ? listedTwice : listed).add(id);
  return { lost: [...acknowledged].filter((id) => !listed.has(id)), listedTwice: [...listedTwice] };
}

/** The acknowledged events that never arrived. */
export function eventsLost(acknowledged: Iterable<string>, delivered: ReadonlySet<string>): string[] {
  return [...acknowledged].filter((id) => !delivered.has(id));
}
