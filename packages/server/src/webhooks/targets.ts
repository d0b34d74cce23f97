// Where webhooks may be sent. A webhook URL is chosen by whoever holds a sandbox token, so the
// server must not become their way into its own network: link-local and cloud metadata addresses
// are always refused, loopback and private ranges when the sandbox is hosted. The URL is checked
// when it is set, and every delivery checks the addresses its host name resolves to, inside the
// connection's own lookup: the address checked is the address connected to (no DNS rebinding).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent, fetch as undiciFetch } from 'undici';

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
/** Ranges (ipaddr.js's names and this module's) that only a local sandbox may reach. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** IPv6 ranges that ipaddr.js calls unicast but that are not public, by their names here. */
const UNLISTED_IPV6_RANGES = (
  [
    // Site-local (RFC 3879 deprecated it): no receiver is reached there on purpose any more, so it is refused outright.
    ['siteLocal', 'fec0::/10'],
    // Local-use NAT64 (RFC 8215): the network translates it to an IPv4 address at a place of its choosing (RFC 6052
    // §2.2 allows prefixes of 48 to 96 bits here), so the IPv4 address it reaches cannot be read from it.
    ['localUseNat64', '64:ff9b:1::/48'],
    // Documentation (RFC 9637) and SRv6 segment identifiers (RFC 9602): not globally reachable.
    ['documentation', '3fff::/20'],
    ['srv6Sid', '5f00::/16'],
  ] as const
).map(([name, cidr]) => [name, ipaddr.IPv6.parseCIDR(cidr)] as const);

/** Ranges whose addresses lead to the IPv4 address they embed: decided as that IPv4 address is. */
const EMBEDDING_RANGES = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);
// IPv4-compatible addresses (::/96 without :: and ::1) are refused outright, whatever they embed: RFC 4291
// §2.5.5.1 deprecated them, some stacks still route them to the IPv4 address, and no receiver needs them.

function ipv6Range(address: ipaddr.IPv6): string {
  const range = address.range();
  if (range !== 'unicast') return range;
  if (address.parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible';
  return UNLISTED_IPV6_RANGES.find(([, cidr]) => address.match(cidr))?.[0] ?? 'unicast';
}

/** The IPv4 addresses an IPv6 address embeds, by the RFC that defines each form. */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const parts = address.parts as number[];
  const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case 'ipv4Mapped': // ::ffff:0:0/96, RFC 4291 §2.5.5.2
    case 'rfc6145': // ::ffff:0:0:0/96, IPv4-translated, RFC 2765 §2.1
    case 'rfc6052': // 64:ff9b::/96, the well-known NAT64 prefix, RFC 6052 §2.1
      return [ipv4(parts[6]!, parts[7]!)];
    case '6to4': // 2002:V4ADDR::/48, RFC 3056 §2
      return [ipv4(parts[1]!, parts[2]!)];
    case 'teredo': // 2001:0:<server>:<flags>:<port>:<client>, the client's address inverted, RFC 4380 §4
      return [ipv4(parts[2]!, parts[3]!), ipv4(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)];
  }
  // An ISATAP interface identifier after any prefix, 0000:5efe:V4ADDR or 0200:5efe:V4ADDR (RFC 5214 §6.1; the
  // universal/local and group bits masked, RFC 4291 appendix A): the IPv4 address is the tunnel's end point.
  if ((parts[4]! & 0xfcff) === 0 && parts[5] === 0x5efe) return [ipv4(parts[6]!, parts[7]!)];
  return [];
}

/** Why the policy refuses this address itself (a noun phrase), or undefined; embedded addresses aside. */
function refusal(address: ipaddr.IPv4 | ipaddr.IPv6, range: string, policy: TargetPolicy): string | undefined {
  if (METADATA_ADDRESSES.has(address.toString())) return 'a cloud metadata address';
  if (range === 'unicast' || EMBEDDING_RANGES.has(range)) return undefined;
  const named = `${/^(?:[aeio]|unspecified)/.test(range) ? 'an' : 'a'} ${range} address`;
  if (PRIVATE_RANGES.has(range)) return policy.allowPrivate ? undefined : `${named}, refused on this server`;
  // Link-local (metadata at 169.254.169.254), unspecified, multicast, reserved, local-use NAT64, documentation.
  return named;
}

/**
 * Why an address may not receive webhooks, or undefined when it may. An IPv6 address that embeds an IPv4 address
 * is refused when that IPv4 address would be, under the same policy.
 */
export function refusedAddress(text: string, policy: TargetPolicy): string | undefined {
  const address = parseAddress(text);
  if (!address) return `${text} is not an IP address`;
  const normal = address.toString();
  if (address.kind() === 'ipv4') {
    const refused = refusal(address, (address as ipaddr.IPv4).range(), policy);
    return refused && `${normal} is ${refused}`;
  }
  const range = ipv6Range(address as ipaddr.IPv6);
  const refused = refusal(address, range, policy);
  if (refused) return `${normal} is ${refused}`;
  for (const ipv4 of embeddedIpv4(address as ipaddr.IPv6, range)) {
    const refusedIpv4 = refusal(ipv4, ipv4.range(), policy);
    if (refusedIpv4) return `${normal} embeds ${ipv4}, ${refusedIpv4}`;
  }
  return undefined;
}

/**
 * An address as written in a URL or by a resolver. IPv6 goes through the URL parser first, which writes a dotted
 * tail in hex: ipaddr.js would read `::a.b.c.d` (IPv4-compatible, as inet_ntop prints it) as `::ffff:a.b.c.d`.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!text.includes(':')) return ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : undefined;
  try {
    // A zone (fe80::1%eth0) names an interface, not another address.
    const host = new URL(`http://[${text.replace(/%.*$/, '')}]/`).hostname;
    return ipaddr.IPv6.parse(host.slice(1, -1));
  } catch {
    return undefined;
  }
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
 * URL (in any spelling the URL parser accepts: decimal, octal or hex IPv4, or IPv6 embedding one) is checked here,
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
  if (parseAddress(host)) return refusedAddress(host, policy);
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
  // undici is loaded for the first delivery: loading it costs about 170 ms of CPU, a third of what a server spent
  // starting, and many servers (a test's, a CLI's) never deliver anything.
  let client: Promise<{ dispatcher: Agent; fetch: typeof undiciFetch }> | undefined;
  const load = () =>
    (client ??= import('undici').then((undici) => ({
      dispatcher: new undici.Agent({ connect: { lookup: guardedLookup(policy, resolve) } }),
      fetch: undici.fetch,
    })));
  const guarded = async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const refused = refusedUrl(url, policy);
    if (refused) throw new RefusedTarget(`refused: ${refused}`);
    const { dispatcher, fetch } = await load();
    return fetch(url, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]);
  };
  // Closing ends the kept-alive connections to receivers.
  return { fetch: guarded as unknown as typeof fetch, close: async () => (await client)?.dispatcher.close() };
}
