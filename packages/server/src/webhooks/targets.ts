// Where webhooks may be sent. A webhook URL is chosen by whoever holds a sandbox token, so the
// server must not become their way into its own network: link-local and cloud metadata addresses
// are always refused, loopback and private ranges when the sandbox is hosted. The URL is checked
// when it is set, and every delivery checks the addresses its host name resolves to, inside the
// connection's own lookup: the address checked is the address connected to (no DNS rebinding).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

export interface TargetPolicy {
  /** Loopback, private (RFC 1918, unique local) and shared (100.64.0.0/10) addresses: allowed locally, refused when hosted. */
  allowPrivate: boolean;
}

/** Cloud metadata services reachable at addresses of ranges that are otherwise ordinary. */
const METADATA_ADDRESSES = new Set(['fd00:ec2::254', '100.100.100.200', '168.63.129.16']);
/** Host names of metadata services (compared without a trailing dot, lowercase). */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** Why an address may not receive webhooks, or undefined when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // process() turns IPv4-mapped IPv6 (::ffff:a.b.c.d) into the IPv4 address it reaches.
  const parsed = ipaddr.process(address);
  const normal = parsed.toString();
  if (METADATA_ADDRESSES.has(normal)) return `${normal} is a cloud metadata address`;
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (PRIVATE_RANGES.has(range)) {
    return policy.allowPrivate ? undefined : `${normal} is a ${range} address, refused on this server`;
  }
  // Link-local (metadata at 169.254.169.254), unspecified, multicast, reserved, NAT64 and tunnel forms.
  return `${normal} is a ${range} address`;
}

/** The host of a URL without IPv6 brackets or a trailing dot, lowercase. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Why the URL may not receive webhooks, or undefined. Needs no DNS: an IP address written in the
 * URL (in any spelling the URL parser accepts: decimal, octal, hex, IPv4-mapped) is checked here,
 * a host name once per delivery by `guardedLookup`.
 */
export function refusedUrl(text: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (url.username || url.password) return 'must not contain credentials';
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return refusedAddress(host, policy);
  if (METADATA_HOSTS.has(host)) return `${host} is a cloud metadata host`;
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return `${host} is a loopback host, refused on this server`;
  return undefined;
}

/** Thrown by the guarded lookup; the delivery records its message as the attempt's error. */
export class RefusedTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTarget';
  }
}

/**
 * A `lookup` for connections that resolves with `resolve` and fails unless every address is
 * allowed. Sockets connect to what it returns, so the checked address is the one used.
 */
export function guardedLookup(policy: TargetPolicy, resolve: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, resolved) => {
      if (error) return callback(error, '', 0);
      const addresses = resolved as unknown as LookupAddress[];
      const refused = addresses.map((entry) => refusedAddress(entry.address, policy)).find(Boolean);
      if (refused || addresses.length === 0) {
        return callback(new RefusedTarget(`refused: ${hostname} resolves to ${refused ?? 'nothing'}`) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * `fetch` for webhook deliveries: refuses a URL the policy refuses, and connects only to
 * addresses the guarded lookup allowed. Redirects are never followed (the worker asks for
 * `redirect: 'manual'`), so a receiver cannot bounce a delivery elsewhere.
 */
export function guardedFetch(policy: TargetPolicy, resolve?: LookupFunction): { fetch: typeof fetch; close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(policy, resolve) } });
  const guarded = async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const refused = refusedUrl(url, policy);
    if (refused) throw new RefusedTarget(`refused: ${refused}`);
    return undiciFetch(url, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]);
  };
  // Closing ends the kept-alive connections to receivers.
  return { fetch: guarded as unknown as typeof fetch, close: () => dispatcher.close() };
}
