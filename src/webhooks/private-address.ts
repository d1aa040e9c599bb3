import { BlockList, isIP } from 'node:net';

/**
 * Never reachable by a webhook, whatever the settings: link-local addresses and the cloud
 * providers' metadata and host endpoints, where a receiver's answer (read back in the delivery
 * log) could hand out instance credentials.
 */
const forbidden = new BlockList();
for (const [net, prefix] of [
  ['169.254.0.0', 16], // link-local, with 169.254.169.254 (AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle metadata)
  ['100.100.100.200', 32], // Alibaba Cloud metadata
  ['168.63.129.16', 32], // Azure WireServer (the host's own endpoint)
  ['192.0.0.192', 32], // Oracle Cloud (classic) metadata
] as const) forbidden.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['fe80::', 10], // link-local
  ['fd00:ec2::254', 128], // AWS metadata over IPv6
] as const) forbidden.addSubnet(net, prefix, 'ipv6');

/** Loopback, private, carrier-grade NAT, multicast and reserved ranges: refused on request. */
const restricted = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) restricted.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fec0::', 10], ['ff00::', 8],
] as const) restricted.addSubnet(net, prefix, 'ipv6');

/**
 * - `forbidden`: link-local or a cloud metadata address, always refused;
 * - `private`: loopback, private or reserved, refused when CMS_WEBHOOK_BLOCK_PRIVATE=true;
 * - `public`: anything else (and anything that is not an IP address).
 */
export type AddressClass = 'forbidden' | 'private' | 'public';

export function classifyAddress(address: string): AddressClass {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(unbracketed);
  if (family === 4) return classifyV4(unbracketed);
  if (family !== 6) return 'public';
  const bare = canonicalIpv6(unbracketed);
  // An IPv6 address with an IPv4 one inside that it reaches: IPv4-mapped (::ffff:a.b.c.d, which
  // URLs spell ::ffff:a9fe:a9fe) and NAT64 (64:ff9b::a.b.c.d) are classed as that IPv4 address.
  const embedded = embeddedIpv4(bare);
  if (embedded) return classifyV4(embedded);
  if (forbidden.check(bare, 'ipv6')) return 'forbidden';
  return restricted.check(bare, 'ipv6') ? 'private' : 'public';
}

/** True for an address a webhook may not reach when CMS_WEBHOOK_BLOCK_PRIVATE=true. */
export const isPrivateAddress = (address: string): boolean => classifyAddress(address) !== 'public';

function classifyV4(address: string): AddressClass {
  if (forbidden.check(address, 'ipv4')) return 'forbidden';
  return restricted.check(address, 'ipv4') ? 'private' : 'public';
}

/** One spelling per address (`0:0:0:0:0:ffff:a9fe:a9fe` → `::ffff:a9fe:a9fe`), zone left out. */
function canonicalIpv6(address: string): string {
  const withoutZone = address.replace(/%.*$/, '');
  try {
    return new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
  } catch {
    return withoutZone;
  }
}

function embeddedIpv4(address: string): string | null {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
