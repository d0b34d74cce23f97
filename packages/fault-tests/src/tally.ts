// What the suite checked, in numbers, printed once after each test file's tests and then zeroed (the files run one
// after another in one process, so the counts are the file's): `src/each-file.ts`, a setup file of every test file,
// calls `endOfFile`. Printed by a hook of the file rather than at the process's exit, which the runner no longer
// forwards.
const zeroed = () => ({
  requests: 0,
  kills: 0,
  acknowledgedPayments: 0,
  storedPayments: 0,
  acknowledgedEvents: 0,
  deliveredEvents: 0,
  /** Deliveries of an event already received: at least once, an attempt cut by a kill is made again. */
  eventsSentAgain: 0,
  outageRequests: 0,
  databaseCrashes: 0,
  /** Answers in the error shape (5xx) while the database was down after its crash. */
  databaseCrashRefusals: 0,
  outageRefusals: 0,
  cases: 0,
  /** Requests of one application's token at another's data. */
  intrusions: 0,
  /** Payments each sent to two processes at once, and reads through them checked up to date. */
  twoProcessPayments: 0,
  twoProcessReads: 0,
  /** Live-token requests refused for want of the client CA's certificate. */
  certificateRefusals: 0,
  /** Memory under load, one line per store. */
  memory: [] as string[],
  /** Webhook URLs refused when set, and deliveries refused after their host name resolved. */
  refusedTargets: 0,
  refusedDeliveries: 0,
  /** Webhook attempts a failing receiver saw. */
  webhookAttempts: 0,
  floodConnections: 0,
  floodRequests: 0,
});

export const tally = zeroed();

/** Prints what the file's tests checked, then zeroes the counts for the next file. */
export function endOfFile(): void {
  const t = tally;
  const lines = [
    `${t.requests} requests`,
    t.kills
      ? `${t.kills} kills -9: payments acknowledged ${t.acknowledgedPayments}, stored ${t.storedPayments}; events acknowledged ${t.acknowledgedEvents}, delivered ${t.deliveredEvents} (${t.eventsSentAgain} sent again after a kill)`
      : '',
    t.databaseCrashes ? `${t.databaseCrashes} kills -9 of PostgreSQL: ${t.databaseCrashRefusals} answers 5xx in the error shape meanwhile` : '',
    t.outageRequests ? `database outage: ${t.outageRequests} requests, ${t.outageRefusals} answered 5xx in the error shape` : '',
    t.cases ? `${t.cases} hostile cases` : '',
    t.intrusions ? `${t.intrusions} requests of one application's token at another's data refused` : '',
    t.twoProcessPayments
      ? `${t.twoProcessPayments} keys sent to two processes at once, one payment each; ${t.twoProcessReads} reads across them up to date`
      : '',
    t.certificateRefusals ? `${t.certificateRefusals} live-token requests without the client CA's certificate refused` : '',
    t.memory.length ? `memory under load: ${t.memory.join('; ')}` : '',
    t.refusedTargets ? `${t.refusedTargets} webhook URLs and ${t.refusedDeliveries} deliveries refused by the target policy` : '',
    t.webhookAttempts ? `${t.webhookAttempts} webhook attempts at a failing receiver, each checked` : '',
    t.floodConnections ? `${t.floodConnections} idle or slow connections held while ${t.floodRequests} normal requests were answered` : '',
  ].filter(Boolean);
  // A file that counted nothing (the memory measure's own test) prints nothing.
  if (Object.values(t).some((count) => (Array.isArray(count) ? count.length > 0 : count > 0))) console.log(`# fault suite: ${lines.join('; ')}`);
  Object.assign(tally, zeroed());
}
