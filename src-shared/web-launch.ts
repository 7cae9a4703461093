/**
 * How browser mode hands its per-launch token to the page: in the launch address's fragment (`/#token=…`).
 *
 * Browsers never send a fragment to any server, and a cookie would be: cookies are not separated by port, so every
 * other server on 127.0.0.1 would receive it. The page reads the token from the fragment once, removes it from the
 * address bar, and sends it as `Authorization: Bearer` on every request to `/api/`.
 */

const LAUNCH_FRAGMENT_PREFIX = '#token=';

/** The host mints 32 random bytes as base64url: 43 characters from this alphabet. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,512}$/;

export function webLaunchUrl(origin: string, token: string): string {
  return `${origin}/${LAUNCH_FRAGMENT_PREFIX}${token}`;
}

/** The token in a `#token=…` fragment (as `location.hash` gives it), or null for any other fragment. */
export function tokenFromLaunchFragment(fragment: string): string | null {
  if (!fragment.startsWith(LAUNCH_FRAGMENT_PREFIX)) return null;
  const token = fragment.slice(LAUNCH_FRAGMENT_PREFIX.length);
  return TOKEN_PATTERN.test(token) ? token : null;
}

export function bearerHeaderValue(token: string): string {
  return `Bearer ${token}`;
}
