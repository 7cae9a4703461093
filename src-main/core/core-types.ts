/**
 * The facade both hosts (Electron shell, web host) and the command line use. All behaviour lives behind it.
 */
import type { ApiEvent, CommandResult } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';
import type { NotAnswering } from './outside/not-answering';
import type { SecretStore } from './secrets/secret-store';

/**
 * Where API keys live. Never the database: Electron `safeStorage`, or the operating system's keychain for the command
 * line and the web host; without either, keys come from the environment.
 */
export interface KeyStore {
  /** Whether `set` can persist a key here. */
  readonly canStore: boolean;
  /** Why keys cannot be stored here, said so a person knows what to do instead; null when they can. */
  readonly refusal: string | null;
  /** The store's own words on why, when it gave any (a keychain library's error), shown beside the refusal. */
  readonly refusalDetail?: string | null;
  /** Where a stored key lives, as the window names it ("the system keychain"). */
  readonly place: string;
  /** False while the store has not answered within its time limit; `refusal` then says so. Absent: always answers. */
  readonly answering?: boolean;
  get(brain: BrainId): string | null;
  set(brain: BrainId, key: string | null): void | Promise<void>;
  /**
   * Reads again keys another process may have changed; the dispatcher awaits it before each command that uses keys,
   * so it must come back quickly even when the store hangs. Never throws.
   */
  refresh?(): Promise<void>;
  /** Lets go of what the store holds (a helper process). */
  dispose?(): void;
}

export interface CoreOptions {
  /** The data folder: holds `anybrain.db` and `skills/`. */
  readonly dataDir: string;
  /** Environment for `ANYBRAIN_<BRAIN>_BASE_URL` and key variables; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Stored keys (Electron's safeStorage, or the system keychain); without it keys come from the environment only. */
  readonly keyStore?: KeyStore;
  /**
   * Where MCP environment values are kept (never SQLite). The Electron shell supplies one sealed with `safeStorage`;
   * without one, values go to the data folder's owner-only `secrets.json` as written (web host and command line).
   */
  readonly secretStore?: SecretStore;
  /** Path to a better-sqlite3 binary built for this runtime's ABI (the Electron shell passes its own build). */
  readonly nativeBinding?: string;
  /** Where outside calls that hang are reported; the host passes the one its key store reports to. */
  readonly notAnswering?: NotAnswering;
  /** A long-running host (the web host, the desktop app) watches its main loop and thread pool (outside/watchdog.ts). */
  readonly watchdog?: boolean;
  /** A long-running host asks each brain in use for its model list once a day, in the background. */
  readonly keepModelListsFresh?: boolean;
  /** How long a write that finds the data folder busy is tried again before the "busy" refusal (store/busy-retry.ts). */
  readonly busyBudgetMs?: number;
}

export interface Core {
  readonly dataDir: string;
  /** Validates `rawInput` against the command's zod schema, runs it, and answers with an envelope (never throws). */
  dispatch(name: string, rawInput: unknown): Promise<CommandResult<unknown>>;
  /** Subscribe to Api events; returns an unsubscribe function. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Aborts running turns (their partial replies are kept as `interrupted`) and closes the database. */
  dispose(): Promise<void>;
}
