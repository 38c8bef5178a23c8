import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook may not reach unless the operator allows private endpoints (docs/api/builders.md,
 * "Events and webhooks"): loopback, private, link-local, carrier-grade NAT, unspecified, benchmarking,
 * documentation, multicast and reserved ranges, in IPv4 and IPv6 (including IPv4-mapped IPv6). A delivery
 * must not become a way into the operator's own network.
 */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  REFUSED.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  REFUSED.addSubnet(network, prefix, "ipv6");

/** Whether `address` (an IP literal) lies in a private, loopback or otherwise non-public range. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return REFUSED.check(mapped[1]!, "ipv4");
  return REFUSED.check(address, "ipv6");
}

/** Raised when a webhook host resolves to an address the policy refuses. */
export class RefusedAddressError extends Error {
  override name = "RefusedAddressError";
  readonly code = "ERR_REFUSED_ADDRESS";
}

/**
 * A `lookup` for Node's HTTP clients that refuses private addresses at connection time, so a name that
 * resolved to a public address when the endpoint was added cannot be pointed inside later (DNS rebinding).
 */
export function publicOnlyLookup(
  hostname: string,
  options: object,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as LookupAddress[];
    const refused = list.find((entry) => isPrivateAddress(entry.address));
    if (refused || list.length === 0)
      return callback(new RefusedAddressError(`${hostname} resolves to a non-public address`), "", 0);
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

/** Every address `hostname` resolves to (an IP literal is its own). */
export async function resolveAll(hostname: string): Promise<string[]> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return [bare];
  return new Promise((resolve, reject) =>
    dnsLookup(bare, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve((addresses as LookupAddress[]).map((entry) => entry.address)),
    ),
  );
}
