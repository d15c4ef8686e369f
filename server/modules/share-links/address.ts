import ipaddr from 'ipaddr.js';

/**
 * A visitor's address as the access log keeps it: the network, not the host
 * (IPv4 /24, IPv6 /48; IPv4-mapped IPv6 as IPv4), enough for an owner to tell
 * visitors apart and too little to find a person.
 */
export function anonymiseAddress(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') {
    const octets = (parsed as ipaddr.IPv4).octets;
    return `${octets[0]}.${octets[1]}.${octets[2]}.0/24`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3).map((part) => part.toString(16));
  return `${parts.join(':')}::/48`;
}
