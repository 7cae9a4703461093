/**
 * API keys in the operating system's keychain, for the browser mode and the command line: macOS Keychain, Windows
 * Credential Manager, or a Secret Service on Linux (GNOME Keyring, KWallet), through `@napi-rs/keyring`. Never the
 * database, never a file of the data folder. Where no keychain answers, nothing is stored and each brain reads its key
 * from the environment, and the view says why.
 *
 * Keychain calls can wait on the user (a locked keyring asks for its password), so they run off the main thread and
 * are never awaited by a read: `get` answers from what the last `refresh` read, and the dispatcher refreshes before a
 * command at most every couple of seconds, which picks up a key another process (`anybrain keys set`) stored meanwhile.
 */
import { resolve } from 'node:path';
import { BRAIN_IDS, BRAINS, type BrainId } from '../../../src-shared/brains';
import type { KeyStore } from '../core-types';

/** The keychain operations the store needs; the real one is `@napi-rs/keyring`, loaded only when first used. */
export interface KeychainBackend {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  /** True when there was a credential to delete. */
  remove(service: string, account: string): Promise<boolean>;
}

/** How long a read of the keychain stands before the next command reads it again. */
export const KEYCHAIN_REFRESH_INTERVAL_MS = 2_000;
/** A keychain that has not answered by then (a prompt nobody answers) counts as unavailable for this read. */
export const KEYCHAIN_TIMEOUT_MS = 10_000;

export const KEYCHAIN_PLACE = "the system keychain";

/** One keychain entry per brain and data folder, so two data folders keep their keys apart. */
export function keychainService(dataDir: string): string {
  return `Anybrain keys (${resolve(dataDir)})`;
}

async function napiKeychainBackend(): Promise<KeychainBackend> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  // On Linux the library falls back to the kernel keyring when no Secret Service answers; that keyring forgets
  // everything at logout, so a key stored there would silently vanish. Only a Secret Service counts.
  const options = process.platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  const entry = (service: string, account: string) => new AsyncEntry(service, account, options);
  return {
    get: (service, account) => entry(service, account).getPassword().then((password) => password ?? null),
    set: (service, account, secret) => entry(service, account).setPassword(secret),
    remove: (service, account) => entry(service, account).deleteCredential(),
  };
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the keychain did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolvePromise(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What a person can do when no keychain answers, on this platform. */
export function keychainRefusal(platform: NodeJS.Platform = process.platform): string {
  const remedy =
    platform === 'linux'
      ? 'start GNOME Keyring or KWallet in your desktop session'
      : platform === 'darwin'
        ? 'check that your login keychain is unlocked'
        : 'check that Windows Credential Manager is available';
  return `no system keychain answered. To store keys, ${remedy}; until then, set each brain's key in the environment`;
}

/** The keychain library's own first line, without its stack: for the curious, beside the refusal. */
export function keychainErrorDetail(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]!.trim() : String(error);
}

export interface KeychainKeyStoreOptions {
  readonly backend?: KeychainBackend;
  readonly now?: () => number;
  readonly timeoutMs?: number;
  readonly platform?: NodeJS.Platform;
}

export interface KeychainKeyStore extends KeyStore {
  /** Reads every brain's key again unless the last read is recent; `force` reads regardless. Never throws. */
  refresh(force?: boolean): Promise<void>;
}

const BRAINS_WITH_KEYS = BRAIN_IDS.filter((brain) => BRAINS[brain].keyVariable !== null);

export function createKeychainKeyStore(dataDir: string, options: KeychainKeyStoreOptions = {}): KeychainKeyStore {
  const service = keychainService(dataDir);
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS;
  const platform = options.platform ?? process.platform;
  let backend: Promise<KeychainBackend> | null = options.backend ? Promise.resolve(options.backend) : null;
  const keys = new Map<BrainId, string>();
  let refusal: string | null = 'the keychain has not been read yet';
  let refusalDetail: string | null = null;
  const refuse = (error: unknown): void => {
    refusal = keychainRefusal(platform);
    refusalDetail = keychainErrorDetail(error);
  };
  const accept = (): void => {
    refusal = null;
    refusalDetail = null;
  };
  let readAt: number | null = null;
  let reading: Promise<void> | null = null;

  const loadBackend = (): Promise<KeychainBackend> => (backend ??= napiKeychainBackend());

  const readAll = async (): Promise<void> => {
    try {
      const keychain = await loadBackend();
      const found = await withTimeout(Promise.all(BRAINS_WITH_KEYS.map(async (brain) => [brain, await keychain.get(service, brain)] as const)), timeoutMs);
      keys.clear();
      for (const [brain, key] of found) if (key !== null && key !== '') keys.set(brain, key);
      accept();
    } catch (error) {
      // Keys read before stay in use: a keychain that stopped answering has not lost them.
      refuse(error);
    } finally {
      readAt = now();
    }
  };

  return {
    get canStore() {
      return refusal === null;
    },
    get refusal() {
      return refusal;
    },
    get refusalDetail() {
      return refusalDetail;
    },
    place: KEYCHAIN_PLACE,

    get: (brain) => keys.get(brain) ?? null,

    async set(brain, key) {
      const keychain = await loadBackend();
      if (key === null) {
        try {
          await withTimeout(keychain.remove(service, brain), timeoutMs);
        } catch (error) {
          throw new Error(`Anybrain could not remove the ${BRAINS[brain].label} key: ${keychainRefusal(platform)} (${keychainErrorDetail(error)}).`);
        }
        keys.delete(brain);
        return;
      }
      try {
        await withTimeout(keychain.set(service, brain, key), timeoutMs);
      } catch (error) {
        refuse(error);
        const variable = BRAINS[brain].keyVariable;
        throw new Error(`Anybrain could not store the ${BRAINS[brain].label} key: ${refusal}${variable === null ? '' : ` (${variable})`}. The keychain said: ${refusalDetail}`);
      }
      keys.set(brain, key);
      accept();
    },

    refresh(force = false) {
      if (reading !== null) return reading;
      if (!force && readAt !== null && now() - readAt < KEYCHAIN_REFRESH_INTERVAL_MS) return Promise.resolve();
      reading = readAll().finally(() => {
        reading = null;
      });
      return reading;
    },
  };
}
