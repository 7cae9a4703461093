import { describe, expect, it } from 'vitest';
import { createKeychainKeyStore, KEYCHAIN_REFRESH_INTERVAL_MS, keychainRefusal, keychainService, type KeychainBackend } from './keychain-key-store';

const LINUX_REFUSAL =
  "no system keychain answered. To store keys, start GNOME Keyring or KWallet in your desktop session; until then, set each brain's key in the environment";

/** A keychain in memory that counts its reads, and can be made to fail or to never answer. */
function memoryKeychain() {
  const entries = new Map<string, string>();
  const state = { reads: 0, failure: null as Error | null, hang: false };
  const answer = <T>(value: () => T): Promise<T> => {
    if (state.hang) return new Promise<T>(() => {});
    if (state.failure) return Promise.reject(state.failure);
    return Promise.resolve(value());
  };
  const backend: KeychainBackend = {
    get: (service, account) => {
      state.reads += 1;
      return answer(() => entries.get(`${service}/${account}`) ?? null);
    },
    set: (service, account, secret) => answer(() => void entries.set(`${service}/${account}`, secret)),
    remove: (service, account) => answer(() => entries.delete(`${service}/${account}`)),
  };
  return { backend, entries, state };
}

const DATA_DIR = '/home/someone/.local/share/anybrain';
const SERVICE = 'Anybrain keys (/home/someone/.local/share/anybrain)';

describe('keys in the system keychain', () => {
  it('keeps one entry per brain under a service named for the data folder', async () => {
    const keychain = memoryKeychain();
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend });
    await store.refresh();
    expect(store.canStore).toBe(true);
    expect(store.refusal).toBeNull();
    expect(store.place).toBe('the system keychain');
    await store.set('kimi', 'sk-kimi');
    expect([...keychain.entries]).toEqual([[`${SERVICE}/kimi`, 'sk-kimi']]);
    expect(store.get('kimi')).toBe('sk-kimi');
    await store.set('kimi', null);
    expect(keychain.entries.size).toBe(0);
    expect(store.get('kimi')).toBeNull();
    expect(keychainService('/tmp/a/../b')).toBe('Anybrain keys (/tmp/b)');
  });

  it('reads every brain that takes a key at most once per interval, and picks up a key another process stored', async () => {
    const keychain = memoryKeychain();
    let clock = 1_000;
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, now: () => clock });
    expect(store.canStore).toBe(false);
    expect(store.refusal).toBe('the keychain has not been read yet');
    await store.refresh();
    // Seven brains, Ollama needs no key.
    expect(keychain.state.reads).toBe(6);
    keychain.entries.set(`${SERVICE}/claude`, 'sk-ant-elsewhere');
    clock += KEYCHAIN_REFRESH_INTERVAL_MS - 1;
    await store.refresh();
    expect(keychain.state.reads).toBe(6);
    expect(store.get('claude')).toBeNull();
    clock += 1;
    await store.refresh();
    expect(keychain.state.reads).toBe(12);
    expect(store.get('claude')).toBe('sk-ant-elsewhere');
    await store.refresh(true);
    expect(keychain.state.reads).toBe(18);
  });

  it('shares one read between callers that ask at once', async () => {
    const keychain = memoryKeychain();
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend });
    await Promise.all([store.refresh(), store.refresh(), store.refresh()]);
    expect(keychain.state.reads).toBe(6);
  });

  it('says why nothing can be stored when no keychain answers, and what to do instead', async () => {
    const keychain = memoryKeychain();
    keychain.state.failure = new Error('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time\n    at stack');
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, platform: 'linux' });
    await store.refresh();
    expect(store.canStore).toBe(false);
    expect(store.refusal).toBe(LINUX_REFUSAL);
    expect(store.refusalDetail).toBe('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time');
    await expect(store.set('kimi', 'sk-kimi')).rejects.toThrow(
      `Anybrain could not store the Kimi key: ${LINUX_REFUSAL} (MOONSHOT_API_KEY). The keychain said: Platform failure: DBus error: Using X11 ` +
        'for dbus-daemon autolaunch was disabled at compile time',
    );
    expect(store.get('kimi')).toBeNull();
  });

  it('keeps the keys it read when the keychain later stops answering, and a keychain that never answers times out', async () => {
    const keychain = memoryKeychain();
    keychain.entries.set(`${SERVICE}/glm`, 'sk-glm');
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, timeoutMs: 20, platform: 'darwin' });
    await store.refresh();
    expect(store.get('glm')).toBe('sk-glm');
    keychain.state.hang = true;
    await store.refresh(true);
    expect(store.canStore).toBe(false);
    expect(store.refusal).toBe(
      "no system keychain answered. To store keys, check that your login keychain is unlocked; until then, set each brain's key in the environment",
    );
    expect(store.refusalDetail).toBe('the keychain did not answer within 0.02 s');
    expect(store.get('glm')).toBe('sk-glm');
    keychain.state.hang = false;
    await store.refresh(true);
    expect(store.canStore).toBe(true);
    expect(store.refusalDetail).toBeNull();
  });

  it('names what to do on each platform', () => {
    expect(keychainRefusal('win32')).toBe(
      "no system keychain answered. To store keys, check that Windows Credential Manager is available; until then, set each brain's key in the environment",
    );
  });
});
