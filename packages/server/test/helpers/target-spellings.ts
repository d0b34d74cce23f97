// The webhook target policy's table: addresses in every spelling a URL or a resolver can give them, and what a
// local sandbox (private addresses allowed) and a hosted one (refused) must decide. The server's tests check it at
// URL registration and at delivery time; the fault suite against a running server.

export type Decision = 'refused' | 'allowed';

export interface TargetSpelling {
  /** The address as a URL's host writes it (IPv6 in brackets) or as the URL parser reads it. */
  host: string;
  local: Decision;
  hosted: Decision;
  /** What it is. */
  why: string;
}

const always = (host: string, why: string): TargetSpelling => ({ host, local: 'refused', hosted: 'refused', why });
const privately = (host: string, why: string): TargetSpelling => ({ host, local: 'allowed', hosted: 'refused', why });
const publicly = (host: string, why: string): TargetSpelling => ({ host, local: 'allowed', hosted: 'allowed', why });

// 169.254.169.254 is a9fe:a9fe in hex; inverted (Teredo's client), 5601:5601. 127.0.0.1 is 7f00:1, 10.0.0.5 a00:5
// (inverted f5ff:fffa), 8.8.8.8 808:808 (inverted f7f7:f7f7).
export const targetSpellings: TargetSpelling[] = [
  always('169.254.169.254', 'link-local: the metadata service'),
  always('2852039166', '169.254.169.254 as one decimal number'),
  always('0xa9.0xfe.0xa9.0xfe', '169.254.169.254 in hex'),
  always('0251.0376.0251.0376', '169.254.169.254 in octal'),
  always('169.254.43518', '169.254.169.254 in two parts'),
  always('[fe80::1]', 'IPv6 link-local'),
  always('[fd00:ec2::254]', 'the AWS metadata service over IPv6'),
  always('100.100.100.200', 'the Alibaba metadata service'),
  always('168.63.129.16', 'the Azure host'),
  always('0.0.0.0', 'unspecified'),
  always('[::]', 'IPv6 unspecified'),
  always('224.0.0.1', 'multicast'),
  always('255.255.255.255', 'broadcast'),
  always('198.18.0.1', 'benchmarking'),
  always('[2001:db8::1]', 'IPv6 documentation'),
  always('[3fff::1]', 'IPv6 documentation (RFC 9637)'),
  always('[5f00::1]', 'SRv6 segment identifiers (RFC 9602)'),
  always('[::ffff:169.254.169.254]', 'IPv4-mapped'),
  always('[::ffff:a9fe:a9fe]', 'IPv4-mapped, in hex'),
  always('[::169.254.169.254]', 'IPv4-compatible (deprecated)'),
  always('[::a9fe:a9fe]', 'IPv4-compatible, in hex'),
  always('[::0.0.0.2]', 'IPv4-compatible 0.0.0.2: "this network"'),
  always('[::ffff:0:169.254.169.254]', 'IPv4-translated'),
  always('[64:ff9b::a9fe:a9fe]', 'NAT64, the well-known prefix'),
  always('[64:ff9b::6464:64c8]', 'NAT64 of the Alibaba metadata service'),
  always('[64:ff9b:1::a9fe:a9fe]', 'local-use NAT64 (RFC 8215)'),
  always('[64:ff9b:1:a9fe:a9:fe00::]', 'local-use NAT64 with a /48 prefix'),
  always('[64:ff9b:1::808:808]', 'local-use NAT64, whatever it embeds'),
  always('[2002:a9fe:a9fe::1]', '6to4'),
  always('[2001:0:4136:e378:8000:63bf:5601:5601]', 'Teredo, 169.254.169.254 as the client'),
  always('[2001:0:a9fe:a9fe:8000:63bf:f7f7:f7f7]', 'Teredo, 169.254.169.254 as the server'),
  always('[2001:4860::5efe:a9fe:a9fe]', 'an ISATAP interface identifier'),
  always('[2001:4860::200:5efe:a9fe:a9fe]', 'an ISATAP interface identifier, universal bit set'),
  always('[::ffff:224.0.0.1]', 'IPv4-mapped multicast'),
  privately('127.0.0.1', 'loopback'),
  privately('2130706433', '127.0.0.1 as one decimal number'),
  privately('0x7f.1', '127.0.0.1 in hex, two parts'),
  privately('[::1]', 'IPv6 loopback'),
  privately('[::ffff:127.0.0.1]', 'IPv4-mapped loopback'),
  always('[::127.0.0.1]', 'IPv4-compatible loopback (deprecated)'),
  privately('[::ffff:0:7f00:1]', 'IPv4-translated loopback'),
  privately('10.0.0.5', 'private (RFC 1918)'),
  privately('172.16.3.4', 'private (RFC 1918)'),
  privately('192.168.1.10', 'private (RFC 1918)'),
  privately('100.64.0.1', 'shared (RFC 6598)'),
  privately('[fc00::1]', 'unique local'),
  always('[fec0::1]', 'site-local (deprecated)'),
  privately('[64:ff9b::10.0.0.5]', 'NAT64 of a private address'),
  privately('[2002:c0a8:10a::1]', '6to4 of 192.168.1.10'),
  privately('[2001:0:4136:e378:8000:63bf:f5ff:fffa]', 'Teredo, 10.0.0.5 as the client'),
  privately('[2001:4860::5efe:a00:5]', 'ISATAP of 10.0.0.5'),
  publicly('8.8.8.8', 'public'),
  publicly('[2001:4860:4860::8888]', 'public IPv6'),
  publicly('[64:ff9b::808:808]', 'NAT64 of a public address'),
  publicly('[2002:808:808::1]', '6to4 of a public address'),
  publicly('[2001:0:4136:e378:8000:63bf:f7f7:f7f7]', 'Teredo of public addresses'),
];

/** The address a resolver would answer for the spelling: the URL parser's reading, without brackets. */
export function resolvedAddress(spelling: TargetSpelling): string {
  return new URL(`http://${spelling.host}/`).hostname.replace(/^\[(.*)\]$/, '$1');
}
