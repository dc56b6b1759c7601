import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless its host is allow-listed: everything that is not on the public
 * internet (IANA special-purpose registries), IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) whatever IPv4 address
 * they carry.
 */
const IPV4_RANGES: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const IPV6_RANGES: Array<[string, number]> = [
  ['::', 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible form
  // IPv4-mapped (::ffff:a.b.c.d, also written ::ffff:7f00:1): a socket given one reaches the IPv4 address in it.
  // BlockList matches them against the IPv4 ranges too; all of them are refused, as the special-purpose registry has it.
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 2765 SIIT): embeds any IPv4 address
  ['64:ff9b::', 96], // NAT64: would reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

// Two lists: BlockList checks an IPv4 address against IPv6 rules as its mapped form, which ::ffff:0:0/96 would match.
const forbiddenV4 = new BlockList();
for (const [network, prefix] of IPV4_RANGES) forbiddenV4.addSubnet(network, prefix, 'ipv4');
const forbiddenV6 = new BlockList();
for (const [network, prefix] of IPV6_RANGES) forbiddenV6.addSubnet(network, prefix, 'ipv6');

/** Cloud metadata services by name, whatever DNS says (`localhost` itself is caught by its addresses). */
const FORBIDDEN_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** True for an IP address outside the public internet (loopback, private, link-local, CGNAT, metadata, …). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? forbiddenV4.check(address, 'ipv4') : forbiddenV6.check(address, 'ipv6');
}

/** True for a metadata service name or a `*.localhost` name. */
export function isForbiddenHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return FORBIDDEN_NAMES.has(name) || name.endsWith('.localhost');
}
