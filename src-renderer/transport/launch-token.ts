import { tokenFromLaunchFragment } from '../../src-shared/web-launch';

/** sessionStorage is per tab and per origin (port included), so no other 127.0.0.1 server can read it. */
const SESSION_STORAGE_KEY = 'anybrain.webToken';

export interface LaunchTokenPlace {
  readonly location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  readonly history: Pick<History, 'replaceState' | 'state'>;
  /** Null where the browser refuses storage; the token then lives in page memory only and a reload needs the address. */
  readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * The web host's token: taken from a `#token=…` launch address (and removed from the address bar, so it is neither
 * bookmarked nor shown), else the one this tab kept from its launch, so a reload keeps working.
 */
export function takeLaunchToken(place: LaunchTokenPlace): string | null {
  const fromFragment = tokenFromLaunchFragment(place.location.hash);
  if (fromFragment !== null) {
    place.history.replaceState(place.history.state, '', `${place.location.pathname}${place.location.search}`);
    try {
      place.storage?.setItem(SESSION_STORAGE_KEY, fromFragment);
    } catch {
      // A full or refused storage leaves the token in page memory only.
    }
    return fromFragment;
  }
  try {
    return place.storage?.getItem(SESSION_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** `window.sessionStorage` throws instead of returning null where the browser blocks storage. */
export function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
