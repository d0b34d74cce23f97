// A resolver that knows only the names it is given, in the shape of `dns.lookup`: for the delivery option
// `webhooks.lookup`, so that no test depends on (or sends to) real DNS.
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIPv6 } from 'node:net';

/** Answers each name with its address; other names fail as getaddrinfo does. `asked` records every name asked. */
export function stubResolver(names: Record<string, string>, asked: string[] = []): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const address = Object.hasOwn(names, hostname) ? names[hostname] : undefined;
    if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const entry: LookupAddress = { address, family: isIPv6(address) ? 6 : 4 };
    if (options.all) callback(null, [entry]);
    else callback(null, entry.address, entry.family);
  }) as unknown as LookupFunction;
}
