/**
 * Where a brain's next request goes and with which key, and whether it may go at all.
 *
 * A key is sent only to an origin it was confirmed for: the provider's official base URL (the key was made for it),
 * the base URL the user set in `ANYBRAIN_<BRAIN>_BASE_URL` (set by the same person who set the key), or the origin
 * the user confirmed in Settings (storing a key there, or confirmKeyHost). Changing the base URL alone, through the
 * Api, must never carry the key to a new host without the user saying so: the turn is refused before anything is
 * sent. And nothing goes over plain http:// except to this computer (src-shared/base-url.ts).
 */
import type { ConnectionProblem, SettingsView } from '../../src-shared/api';
import { baseUrlProblem, hostOf, originOf } from '../../src-shared/base-url';
import { BRAINS, type BrainId } from '../../src-shared/brains';
import type { KeyStore } from './core-types';
import type { BrainConnection } from './engine/admit';
import type { AppDatabase } from './store/open';
import { readSetting, writeSetting } from './store/settings';

type Environment = Readonly<Record<string, string | undefined>>;

export interface ResolvedConnection extends BrainConnection {
  readonly keySource: SettingsView['brains'][number]['keySource'];
  readonly baseUrlOverride: string | null;
}

function environmentBaseUrl(brain: BrainId, env: Environment): string | null {
  const value = env[BRAINS[brain].baseUrlVariable]?.trim();
  return value ? value : null;
}

/** The origins the brain's key may be sent to, the user's own confirmation first. */
function confirmedOrigins(db: AppDatabase, brain: BrainId, env: Environment): string[] {
  const fromEnvironment = environmentBaseUrl(brain, env);
  const candidates = [readSetting(db, 'keyOrigins')?.[brain] ?? null, fromEnvironment === null ? null : originOf(fromEnvironment), originOf(BRAINS[brain].defaultBaseUrl)];
  return candidates.filter((origin): origin is string => origin !== null);
}

function problemOf(db: AppDatabase, brain: BrainId, env: Environment, baseUrl: string, baseUrlOverride: string | null, apiKey: string | null): ConnectionProblem | null {
  const info = BRAINS[brain];
  const insecure = baseUrlProblem(baseUrl);
  if (insecure !== null) {
    const where = baseUrlOverride !== null ? `The ${info.label} base URL in Settings` : `${info.baseUrlVariable}`;
    return { code: 'insecure-base-url', message: `${where} is ${baseUrl}, so nothing was sent. ${insecure}` };
  }
  if (apiKey === null) return null;
  const target = originOf(baseUrl);
  const confirmed = confirmedOrigins(db, brain, env);
  if (target !== null && confirmed.includes(target)) return null;
  const confirmedHost = confirmed[0] === undefined ? hostOf(info.defaultBaseUrl) : hostOf(confirmed[0]);
  return {
    code: 'key-host-unconfirmed',
    message: `Your ${info.label} key was confirmed for ${confirmedHost}. Send it to ${hostOf(baseUrl)}? Confirm in Settings → ${info.label}.`,
  };
}

/** Base URL: settings, else `ANYBRAIN_<BRAIN>_BASE_URL`, else brains.ts. Key: the key store, else the environment. */
export function connectionFor(db: AppDatabase, brain: BrainId, env: Environment, keyStore: KeyStore | undefined): ResolvedConnection {
  const info = BRAINS[brain];
  const baseUrlOverride = readSetting(db, 'baseUrls')?.[brain] ?? null;
  const baseUrl = baseUrlOverride ?? environmentBaseUrl(brain, env) ?? info.defaultBaseUrl;
  let apiKey: string | null = null;
  let keySource: ResolvedConnection['keySource'] = 'none';
  if (info.keyVariable === null) keySource = 'not-needed';
  else {
    const stored = keyStore?.get(brain) ?? null;
    const fromEnvironment = env[info.keyVariable];
    if (stored) [apiKey, keySource] = [stored, 'stored'];
    else if (fromEnvironment) [apiKey, keySource] = [fromEnvironment, 'environment'];
  }
  return { baseUrl, apiKey, keySource, baseUrlOverride, problem: problemOf(db, brain, env, baseUrl, baseUrlOverride, apiKey) };
}

/** Records that the brain's key may go to the origin of `baseUrl` (the one confirmation a brain keeps). */
export function confirmKeyOrigin(db: AppDatabase, brain: BrainId, baseUrl: string): void {
  const origin = originOf(baseUrl);
  if (origin === null) return;
  writeSetting(db, 'keyOrigins', { ...(readSetting(db, 'keyOrigins') ?? {}), [brain]: origin });
}

export function forgetKeyOrigin(db: AppDatabase, brain: BrainId): void {
  const origins = { ...(readSetting(db, 'keyOrigins') ?? {}) };
  if (!Object.hasOwn(origins, brain)) return;
  delete origins[brain];
  writeSetting(db, 'keyOrigins', origins);
}
