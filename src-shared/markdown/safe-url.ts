const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The URL when it is an absolute http, https or mailto URL, else null: everything else renders as plain text. */
export function safeLinkUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return LINK_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}
