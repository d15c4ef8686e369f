import ipaddr from 'ipaddr.js';

/** `10.0.0.0/8`, `::1/128` or a plain address. */
export function isAddressOrRange(value: string): boolean {
  try {
    if (value.includes('/')) ipaddr.parseCIDR(value);
    else ipaddr.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether `address` (as Fastify's request.ip gives it) is in one of the entries; IPv4-mapped IPv6 counts as IPv4. */
export function addressAllowed(address: string, entries: readonly string[]): boolean {
  if (!entries.length || !ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  for (const entry of entries) {
    try {
      const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), -1];
      const prefix = bits === -1 ? (range.kind() === 'ipv4' ? 32 : 128) : bits;
      if (range.kind() === parsed.kind() && parsed.match(range, prefix)) return true;
    } catch {
      // An entry that does not parse allows nothing.
    }
  }
  return false;
}
