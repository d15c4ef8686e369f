/** Link protocols of spec §9: the editor's whitelist and the conversion's filter. */
export const LINK_PROTOCOLS = ['http', 'https', 'mailto', 'tel', 'sms'];

/** An href with an allowed protocol, else null (relative and other schemes are not links). */
export function allowedLink(href: string | null | undefined): string | null {
  if (!href) return null;
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim());
  if (!match || !LINK_PROTOCOLS.includes(match[1]!.toLowerCase())) return null;
  return href.trim();
}
