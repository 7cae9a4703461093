/**
 * API keys in the operating system's keychain, for the browser mode and the command line: macOS Keychain, Windows
 * Credential Manager, or a Secret Service on Linux (GNOME Keyring, KWallet), through `@napi-rs/keyring`. Never the
 * database, never a file of the data folder. Where no keychain answers, nothing is stored and each brain reads its key
 * from the environment, and the view says why.
 *
 * A keychain may hang instead of failing: a locked keyring whose unlock prompt nobody can see (an SSH session, a
 * prompt ignored), a Secret Service daemon that stopped. So every call runs in a helper process of its own
 * (keychain-helper.ts, through outside/process-lane.ts), never on a thread of this process, and has a time limit:
 * - a read not answered within `KEYCHAIN_ANSWER_LIMIT_MS` is reported once ("not answering"), and every command goes
 *   on with the keys read before and the environment's. The read itself may still answer (a person typing the
 *   keyring's password), and its keys are then taken; after `KEYCHAIN_GIVE_UP_MS` the helper is killed, and a later
 *   command asks again. No second read starts while one waits.
 * - a write not answered within the limit kills the helper, so it sends nothing more; a keychain that was only slow
 *   may still store what it had been sent, and the refusal says so.
 * `get` never waits: it answers from the last read, which the dispatcher refreshes before a command that uses keys
 * at most every couple of seconds, waiting for it only briefly (see `refresh`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BRAIN_IDS, BRAINS, type BrainId } from '../../../src-shared/brains';
import type { KeyStore } from '../core-types';
import type { NotAnswering } from '../outside/not-answering';
import { pendingCalls } from '../outside/pending-calls';
import { LaneEndedError, ProcessLane } from '../outside/process-lane';
import { answeredWithin, type WithinLimit } from '../outside/time-limit';
import type { KeychainRequest } from './keychain-requests';

/** The keychain operations the store needs; the real one is the helper process. */
export interface KeychainBackend {
  /** Every account's secret (null when none), in one call. */
  read(service: string, accounts: readonly string[]): Promise<Readonly<Record<string, string | null>>>;
  set(service: string, account: string, secret: string): Promise<void>;
  /** True when there was a credential to delete. */
  remove(service: string, account: string): Promise<boolean>;
  /** Gives up on every call still waiting (each rejects with `LaneEndedError`); the next call starts afresh. */
  reset(): void;
  dispose(): void;
}

/** How long a read of the keychain stands before the next command reads it again. */
export const KEYCHAIN_REFRESH_INTERVAL_MS = 2_000;
/** A keychain call not answered by then counts as not answering: reported, and the command goes on without it. */
export const KEYCHAIN_ANSWER_LIMIT_MS = 5_000;
/** A read still unanswered by then is given up (its helper killed); the next command's read starts afresh. */
export const KEYCHAIN_GIVE_UP_MS = 60_000;
/** How long a command waits for a new read of a keychain that has answered before: a healthy one answers in ms. */
export const KEYCHAIN_FRESH_WAIT_MS = 300;

export const KEYCHAIN_PLACE = 'the system keychain';
const NOT_ANSWERING_KEY = 'keychain';

/** One keychain entry per brain and data folder, so two data folders keep their keys apart. */
export function keychainService(dataDir: string): string {
  return `Anybrain keys (${resolve(dataDir)})`;
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

/** Why keys are not in use while the keychain has not answered within its limit. */
export function keychainNotAnswering(limitMs: number): string {
  return `the system keychain is not answering (no answer within ${limitMs / 1000} s): keys stored there are not in use until it answers; using the keys from the environment`;
}

/** The keychain library's own first line, without its stack: for the curious, beside the refusal. */
export function keychainErrorDetail(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]!.trim() : String(error);
}

/**
 * A keychain library's own time limit lapsing: D-Bus gives up on a Secret Service that took the call and never replied
 * ("Did not receive a reply", org.freedesktop.DBus.Error.NoReply). That keychain is not answering, not refusing.
 */
function isNoReply(error: unknown): boolean {
  return error instanceof Error && /did not receive a reply|DBus\.Error\.NoReply|DBus\.Error\.Timeout/i.test(error.message);
}

const HELPER_FILE = 'keychain-helper.js';

/**
 * The helper's command: the built entry beside the main bundle (or one folder above a shared chunk), as the command
 * line's build emits it; from the sources (tests), the TypeScript entry through tsx. Null when neither is there.
 */
export function keychainHelperCommand(moduleUrl: string = import.meta.url): readonly string[] | null {
  const built = [new URL(`./${HELPER_FILE}`, moduleUrl), new URL(`../${HELPER_FILE}`, moduleUrl)].find((candidate) => existsSync(candidate));
  if (built !== undefined) return [process.execPath, fileURLToPath(built)];
  const source = new URL('./keychain-helper.ts', moduleUrl);
  if (!moduleUrl.endsWith('.ts') || !existsSync(source)) return null;
  return [process.execPath, '--import', 'tsx', fileURLToPath(source)];
}

/** The keychain through its helper process. */
export function helperKeychainBackend(command: readonly string[] | null = keychainHelperCommand()): KeychainBackend {
  const lane = new ProcessLane<KeychainRequest>(KEYCHAIN_PLACE, () => {
    if (command === null) throw new Error('its helper is not built (run `npm run build`)');
    const [file, ...args] = command;
    return spawn(file!, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  });
  return {
    read: (service, accounts) => pendingCalls.track('the system keychain: a read', lane.call({ op: 'read', service, accounts })),
    set: (service, account, secret) => pendingCalls.track('the system keychain: storing a key', lane.call({ op: 'set', service, account, secret })),
    remove: (service, account) => pendingCalls.track('the system keychain: removing a key', lane.call({ op: 'remove', service, account })),
    reset: () => lane.reset(),
    dispose: () => lane.dispose(),
  };
}

export interface KeychainKeyStoreOptions {
  readonly backend?: KeychainBackend;
  /** Where "not answering" is reported, for the log and the window. */
  readonly notAnswering?: NotAnswering;
  readonly now?: () => number;
  readonly answerLimitMs?: number;
  readonly giveUpMs?: number;
  readonly freshWaitMs?: number;
  readonly platform?: NodeJS.Platform;
}

export interface KeychainKeyStore extends KeyStore {
  /**
   * Reads every brain's key again unless the last read is recent (`force` reads regardless), and waits for the
   * answer: at most the answer limit for the first read (or a forced one), at most `KEYCHAIN_FRESH_WAIT_MS` for a
   * later one. A read that outlives the wait goes on in the background. Never throws.
   */
  refresh(force?: boolean): Promise<void>;
  dispose(): void;
}

const BRAINS_WITH_KEYS = BRAIN_IDS.filter((brain) => BRAINS[brain].keyVariable !== null);

export function createKeychainKeyStore(dataDir: string, options: KeychainKeyStoreOptions = {}): KeychainKeyStore {
  const service = keychainService(dataDir);
  const now = options.now ?? Date.now;
  const answerLimitMs = options.answerLimitMs ?? KEYCHAIN_ANSWER_LIMIT_MS;
  const giveUpMs = options.giveUpMs ?? KEYCHAIN_GIVE_UP_MS;
  const freshWaitMs = options.freshWaitMs ?? KEYCHAIN_FRESH_WAIT_MS;
  const platform = options.platform ?? process.platform;
  let backend: KeychainBackend | null = options.backend ?? null;
  const keychain = (): KeychainBackend => (backend ??= helperKeychainBackend());
  const keys = new Map<BrainId, string>();
  let refusal: string | null = 'the keychain has not been read yet';
  let refusalDetail: string | null = null;
  let answering = true;

  const refuse = (error: unknown): void => {
    refusal = keychainRefusal(platform);
    refusalDetail = keychainErrorDetail(error);
  };
  const accept = (): void => {
    refusal = null;
    refusalDetail = null;
  };
  const stoppedAnswering = (): void => {
    answering = false;
    refusal = keychainNotAnswering(answerLimitMs);
    refusalDetail = null;
    options.notAnswering?.report(NOT_ANSWERING_KEY, 'keychain', KEYCHAIN_PLACE, 'The system keychain is not answering; using the keys from the environment.');
  };
  const answeredAgain = (): void => {
    answering = true;
    options.notAnswering?.answered(NOT_ANSWERING_KEY);
  };

  let readAt: number | null = null;
  let reading: { readonly startedAt: number; readonly done: Promise<void> } | null = null;

  const readAll = async (): Promise<void> => {
    const call = keychain().read(service, BRAINS_WITH_KEYS);
    const giveUp = setTimeout(() => keychain().reset(), giveUpMs);
    try {
      const outcome = await answeredWithin(call, answerLimitMs);
      const values = outcome.kind === 'answered' ? outcome.value : (stoppedAnswering(), await call);
      keys.clear();
      for (const brain of BRAINS_WITH_KEYS) {
        const key = values[brain];
        if (typeof key === 'string' && key !== '') keys.set(brain, key);
      }
      accept();
      answeredAgain();
    } catch (error) {
      // Keys read before stay in use: a keychain that stopped answering has not lost them.
      if (isNoReply(error)) stoppedAnswering();
      // Given up on (the give-up timer, or a write that needed the helper): still not answering.
      else if (!(error instanceof LaneEndedError && !answering)) {
        refuse(error);
        answeredAgain();
      }
    } finally {
      clearTimeout(giveUp);
      readAt = now();
    }
  };

  const waitFor = async (read: { readonly startedAt: number; readonly done: Promise<void> }, waitMs: number): Promise<void> => {
    const outcome = await answeredWithin(read.done, read.startedAt + waitMs - now());
    if (outcome.kind === 'late' && waitMs >= answerLimitMs && answering) stoppedAnswering();
  };

  /**
   * Runs a write with the answer limit; at the limit the helper is killed, so it sends nothing more. What it had sent
   * may still be stored by a keychain that was only slow, and the person is told so.
   */
  const write = async <T>(call: () => Promise<T>, failure: (why: string) => string): Promise<T> => {
    // A read still waiting past its limit holds the helper: give up on it, so the write gets a helper of its own.
    if (!answering) keychain().reset();
    const pending = call();
    let outcome: WithinLimit<T>;
    try {
      outcome = await answeredWithin(pending, answerLimitMs);
    } catch (error) {
      if (!isNoReply(error)) {
        refuse(error);
        throw new Error(failure(`${refusal}. The keychain said: ${refusalDetail}`));
      }
      outcome = { kind: 'late' };
    }
    if (outcome.kind === 'late') {
      keychain().reset();
      stoppedAnswering();
      throw new Error(failure('the system keychain is not answering (if it was only slow, it may still make the change: `anybrain keys list` and Settings show what it holds)'));
    }
    answeredAgain();
    accept();
    return outcome.value;
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
    get answering() {
      return answering;
    },
    place: KEYCHAIN_PLACE,

    get: (brain) => keys.get(brain) ?? null,

    async set(brain, key) {
      const { label, keyVariable } = BRAINS[brain];
      if (key === null) {
        await write(
          () => keychain().remove(service, brain),
          (why) => `Anybrain could not remove the ${label} key: ${why}.`,
        );
        keys.delete(brain);
        return;
      }
      await write(
        () => keychain().set(service, brain, key),
        (why) => `Anybrain could not store the ${label} key: ${why}${keyVariable === null ? '' : `. Until then, set ${keyVariable} in the environment`}.`,
      );
      keys.set(brain, key);
    },

    refresh(force = false) {
      const stale = readAt === null || now() - readAt >= KEYCHAIN_REFRESH_INTERVAL_MS;
      if (reading === null && (force || stale)) {
        const read = { startedAt: now(), done: readAll() };
        reading = read;
        void read.done.finally(() => {
          if (reading === read) reading = null;
        });
      }
      if (reading === null) return Promise.resolve();
      return waitFor(reading, force || readAt === null ? answerLimitMs : freshWaitMs);
    },

    dispose() {
      backend?.dispose();
    },
  };
}
