/**
 * What a brain's base URL may be. Every request carries the conversation and, for most brains, the API key: over
 * plain http:// anyone on the network path reads both. http:// is accepted only for a server on this computer
 * (a local model server, a proxy, the test fakes), where the traffic never leaves the machine.
 */

/** localhost, 127.0.0.0/8 and ::1: names and addresses that always mean this computer. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

export const INSECURE_BASE_URL_RULE = 'Base URLs must use https:// (http:// only for this computer: localhost, 127.0.0.1 or ::1).';

/** Why this base URL may not be used, or null when it may. */
export function baseUrlProblem(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'The base URL is not a URL.';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) return null;
  return INSECURE_BASE_URL_RULE;
}

/** `scheme://host[:port]` of a URL, or null when it is not one. */
export function originOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return null;
  }
}

/** The host (with a port when it has one) to name in a message. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
