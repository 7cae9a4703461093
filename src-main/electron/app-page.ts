/**
 * The one page the window may show: the built `out/renderer/index.html`, or the electron-vite dev server in
 * development. Navigation, IPC sender checks and the CSP all ask this module what "the app's own page" is.
 */
import { pathToFileURL } from 'node:url';

export type AppPage =
  | { readonly kind: 'file'; readonly filePath: string; readonly url: string }
  | { readonly kind: 'dev-server'; readonly url: string; readonly origin: string };

export interface AppPageSource {
  /** A packaged app never follows `ELECTRON_RENDERER_URL`: an environment variable must not choose what gets the bridge. */
  readonly isPackaged: boolean;
  /** `ELECTRON_RENDERER_URL`, set by `electron-vite dev`. */
  readonly devServerUrl: string | undefined;
  /** Absolute path of the built `out/renderer/index.html`. */
  readonly rendererFile: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function resolveAppPage({ isPackaged, devServerUrl, rendererFile }: AppPageSource): AppPage {
  if (isPackaged || devServerUrl === undefined || devServerUrl === '') {
    return { kind: 'file', filePath: rendererFile, url: pathToFileURL(rendererFile).href };
  }
  const parsed = parseUrl(devServerUrl);
  // The dev server gets the full Api through the bridge, so only a server on this machine qualifies.
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new Error(`ELECTRON_RENDERER_URL must be an http(s) URL on localhost, got ${JSON.stringify(devServerUrl)}`);
  }
  return { kind: 'dev-server', url: parsed.href, origin: parsed.origin };
}

/** Whether `candidate` is the app's own page: the same built file (any query or hash), or the dev server's origin. */
export function isAppUrl(page: AppPage, candidate: string): boolean {
  const parsed = parseUrl(candidate);
  if (!parsed) return false;
  if (page.kind === 'dev-server') return parsed.origin === page.origin;
  // Every file:// URL has the opaque origin "null", so the file itself is compared, not the origin.
  const own = new URL(page.url);
  return parsed.protocol === 'file:' && parsed.host === own.host && parsed.pathname === own.pathname;
}

export function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
