/**
 * The request target as this host reads it: only origin-form paths, and their percent-decoding, which never throw.
 */

/**
 * The path and query of an origin-form request target (`/path?query`). Absolute-form (`http://…`), `*` and anything
 * else are null: this host only ever serves its own pages, and `new URL` throws on some of them (`http://[`).
 */
export function parseOriginFormTarget(target: string | undefined): URL | null {
  if (target === undefined || !target.startsWith('/')) return null;
  try {
    // Prefixing a fixed origin keeps `//name/…` a path instead of a host.
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return null;
  }
}

/** `decodeURIComponent` throws `URIError` on malformed percent-encoding (`%E0%A4%A`, overlong `%c0%ae`). */
export function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}
