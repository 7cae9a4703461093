import { describe, expect, it } from 'vitest';
import { NotAnswering } from '../outside/not-answering';
import { LaneEndedError } from '../outside/process-lane';
import { createKeychainKeyStore, KEYCHAIN_REFRESH_INTERVAL_MS, keychainRefusal, keychainService, type KeychainBackend } from './keychain-key-store';

const LINUX_REFUSAL =
  "no system keychain answered. To store keys, start GNOME Keyring or KWallet in your desktop session; until then, set each brain's key in the environment";
const NOT_ANSWERING =
  'the system keychain is not answering (no answer within 0.04 s): keys stored there are not in use until it answers; using the keys from the environment';

/**
 * A keychain in memory that counts its calls, and can be made to fail or to hang: a hung call waits until `release`
 * (it then answers) or until the store gives up on it (`reset`, as killing the helper process does).
 */
function memoryKeychain() {
  const entries = new Map<string, string>();
  const state = { reads: 0, resets: 0, failure: null as Error | null, hang: false };
  let waiting: { readonly release: () => void; readonly giveUp: (error: Error) => void }[] = [];
  const answer = <T>(value: () => T): Promise<T> => {
    if (state.failure) return Promise.reject(state.failure);
    if (!state.hang) return Promise.resolve(value());
    return new Promise<T>((resolve, reject) => waiting.push({ release: () => resolve(value()), giveUp: reject }));
  };
  const backend: KeychainBackend = {
    read: (service, accounts) => {
      state.reads += 1;
      return answer(() => Object.fromEntries(accounts.map((account) => [account, entries.get(`${service}/${account}`) ?? null])));
    },
    set: (service, account, secret) => answer(() => void entries.set(`${service}/${account}`, secret)),
    remove: (service, account) => answer(() => entries.delete(`${service}/${account}`)),
    reset: () => {
      state.resets += 1;
      const given = waiting;
      waiting = [];
      for (const call of given) call.giveUp(new LaneEndedError('the system keychain was given up on'));
    },
    dispose: () => {},
  };
  const release = (): void => {
    state.hang = false;
    const released = waiting;
    waiting = [];
    for (const call of released) call.release();
  };
  return { backend, entries, state, release, waiting: () => waiting.length };
}

/** A registry whose log lines the test reads. */
function reporting() {
  const lines: string[] = [];
  return { notAnswering: new NotAnswering((line) => lines.push(line), () => new Date('2026-12-04T10:00:00Z')), lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const DATA_DIR = '/home/someone/.local/share/anybrain';
const SERVICE = 'Anybrain keys (/home/someone/.local/share/anybrain)';
const LIMITS = { answerLimitMs: 40, freshWaitMs: 10, giveUpMs: 60_000 };

describe('keys in the system keychain', () => {
  it('keeps one entry per brain under a service named for the data folder', async () => {
    const keychain = memoryKeychain();
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend });
    await store.refresh();
    expect(store.canStore).toBe(true);
    expect(store.answering).toBe(true);
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

  it('reads every brain that takes a key in one call at most once per interval, and picks up a key another process stored', async () => {
    const keychain = memoryKeychain();
    let clock = 1_000;
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, now: () => clock });
    expect(store.canStore).toBe(false);
    expect(store.refusal).toBe('the keychain has not been read yet');
    await store.refresh();
    expect(keychain.state.reads).toBe(1);
    keychain.entries.set(`${SERVICE}/claude`, 'sk-ant-elsewhere');
    clock += KEYCHAIN_REFRESH_INTERVAL_MS - 1;
    await store.refresh();
    expect(keychain.state.reads).toBe(1);
    expect(store.get('claude')).toBeNull();
    clock += 1;
    await store.refresh();
    expect(keychain.state.reads).toBe(2);
    expect(store.get('claude')).toBe('sk-ant-elsewhere');
    await store.refresh(true);
    expect(keychain.state.reads).toBe(3);
  });

  it('shares one read between callers that ask at once', async () => {
    const keychain = memoryKeychain();
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend });
    await Promise.all([store.refresh(), store.refresh(), store.refresh()]);
    expect(keychain.state.reads).toBe(1);
  });

  it('says why nothing can be stored when no keychain answers, and what to do instead', async () => {
    const keychain = memoryKeychain();
    keychain.state.failure = new Error('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time\n    at stack');
    const { notAnswering } = reporting();
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, platform: 'linux', notAnswering });
    await store.refresh();
    expect(store.canStore).toBe(false);
    // A keychain that refuses answers: nothing hangs, so nothing is reported as not answering.
    expect(store.answering).toBe(true);
    expect(notAnswering.list()).toEqual([]);
    expect(store.refusal).toBe(LINUX_REFUSAL);
    expect(store.refusalDetail).toBe('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time');
    await expect(store.set('kimi', 'sk-kimi')).rejects.toThrow(
      `Anybrain could not store the Kimi key: ${LINUX_REFUSAL}. The keychain said: Platform failure: DBus error: Using X11 ` +
        'for dbus-daemon autolaunch was disabled at compile time. Until then, set MOONSHOT_API_KEY in the environment.',
    );
    expect(store.get('kimi')).toBeNull();
  });

  it('waits for a keychain that does not answer only up to its limit, reports it once, and keeps the keys it read before', async () => {
    const keychain = memoryKeychain();
    keychain.entries.set(`${SERVICE}/glm`, 'sk-glm');
    const { notAnswering, lines } = reporting();
    let clock = 0;
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, notAnswering, now: () => clock, ...LIMITS });
    await store.refresh();
    expect(store.get('glm')).toBe('sk-glm');

    keychain.state.hang = true;
    keychain.entries.set(`${SERVICE}/kimi`, 'sk-kimi-later');
    clock += KEYCHAIN_REFRESH_INTERVAL_MS;
    // A later read waits only briefly: the command goes on while the keychain has not yet been found silent.
    await store.refresh();
    expect([keychain.state.reads, store.answering, notAnswering.list()]).toEqual([2, true, []]);
    // At the limit the read is reported as not answering, once.
    await sleep(60);
    expect(store.answering).toBe(false);
    expect(store.canStore).toBe(false);
    expect(store.refusal).toBe(NOT_ANSWERING);
    expect(store.get('glm')).toBe('sk-glm');
    expect(notAnswering.list()).toEqual([
      {
        key: 'keychain',
        kind: 'keychain',
        subject: 'the system keychain',
        message: 'The system keychain is not answering; using the keys from the environment.',
        since: '2026-12-04T10:00:00.000Z',
      },
    ]);
    // No second read starts while one waits, and commands do not wait for it.
    clock += KEYCHAIN_REFRESH_INTERVAL_MS;
    await Promise.all([store.refresh(), store.refresh(), store.refresh(true)]);
    expect(keychain.state.reads).toBe(2);
    expect(lines).toEqual(['Anybrain: The system keychain is not answering; using the keys from the environment.']);

    // The person unlocks the keyring: the waiting read answers, and its keys are taken.
    keychain.release();
    await sleep(0);
    expect([store.answering, store.canStore, store.get('kimi'), notAnswering.list()]).toEqual([true, true, 'sk-kimi-later', []]);
    expect(lines.at(-1)).toBe('Anybrain: the system keychain answers again.');
  });

  it('gives up on a read that never answers and asks afresh on a later command', async () => {
    const keychain = memoryKeychain();
    keychain.state.hang = true;
    const { notAnswering } = reporting();
    let clock = 0;
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, notAnswering, now: () => clock, ...LIMITS, giveUpMs: 80 });
    // The first read is waited for up to the limit, so a command that needs a key has it when the keychain is well.
    await store.refresh();
    expect([store.answering, store.refusal, keychain.waiting()]).toEqual([false, NOT_ANSWERING, 1]);
    await sleep(100);
    expect([keychain.state.resets, keychain.waiting(), store.answering]).toEqual([1, 0, false]);
    clock += KEYCHAIN_REFRESH_INTERVAL_MS;
    await store.refresh();
    expect([keychain.state.reads, keychain.waiting()]).toEqual([2, 1]);
    expect(notAnswering.list().map((entry) => entry.key)).toEqual(['keychain']);
    keychain.backend.reset();
  });

  it('gives up on a write that does not answer, so it cannot land after the person was told it failed', async () => {
    const keychain = memoryKeychain();
    const { notAnswering } = reporting();
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, notAnswering, ...LIMITS });
    await store.refresh();
    keychain.state.hang = true;
    await expect(store.set('kimi', 'sk-kimi')).rejects.toThrow(
      'Anybrain could not store the Kimi key: the system keychain is not answering (if it was only slow, it may still make the change: `anybrain keys list` and Settings show what it holds). ' +
        'Until then, set MOONSHOT_API_KEY in the environment.',
    );
    expect([keychain.state.resets, keychain.waiting(), store.get('kimi'), store.answering]).toEqual([1, 0, null, false]);
    await expect(store.set('kimi', null)).rejects.toThrow(
      'Anybrain could not remove the Kimi key: the system keychain is not answering (if it was only slow, it may still make the change: `anybrain keys list` and Settings show what it holds).',
    );
    // Answering again: a write first gives up on the read still waiting, then goes through.
    keychain.state.hang = false;
    await store.set('kimi', 'sk-kimi');
    expect([store.get('kimi'), store.answering, notAnswering.list()]).toEqual(['sk-kimi', true, []]);
  });

  it('counts a Secret Service that took the call and never replied as not answering, not as refusing', async () => {
    const keychain = memoryKeychain();
    keychain.entries.set(`${SERVICE}/glm`, 'sk-glm');
    const { notAnswering } = reporting();
    let clock = 0;
    const store = createKeychainKeyStore(DATA_DIR, { backend: keychain.backend, notAnswering, now: () => clock, ...LIMITS });
    await store.refresh();
    keychain.state.failure = new Error(
      'Platform failure: DBus error: Did not receive a reply. Possible causes include: the remote application did not send a reply, the reply timeout expired',
    );
    clock += KEYCHAIN_REFRESH_INTERVAL_MS;
    await store.refresh(true);
    expect([store.answering, store.refusal, store.get('glm'), notAnswering.list().map((entry) => entry.key)]).toEqual([false, NOT_ANSWERING, 'sk-glm', ['keychain']]);
    await expect(store.set('kimi', 'sk-kimi')).rejects.toThrow(
      'Anybrain could not store the Kimi key: the system keychain is not answering (if it was only slow, it may still make the change: `anybrain keys list` and Settings show what it holds). Until then, set MOONSHOT_API_KEY in the environment.',
    );
  });

  it('names what to do on each platform', () => {
    expect(keychainRefusal('win32')).toBe(
      "no system keychain answered. To store keys, check that Windows Credential Manager is available; until then, set each brain's key in the environment",
    );
  });
});
