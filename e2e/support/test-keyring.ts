/**
 * A Secret Service of the tests' own, so keychain tests never touch the keyring of the person running them: each
 * command runs in a fresh D-Bus session (`dbus-run-session`) with its own keychain, and `HOME` pointing at a folder of
 * the test's, where GNOME Keyring keeps its file. Two commands run with the same folder see the same keys, as two
 * sessions of one user would.
 *
 * Three keychains, chosen per command:
 * - `unlocked`: GNOME Keyring, unlocked, as in a desktop session;
 * - `silent`: a Secret Service that takes every call and never replies (a daemon that stopped);
 * - `locked`: the same GNOME Keyring (keys stored in an unlocked session stay) with its login keyring locked and an
 *   unlock prompt shown to nobody (an SSH or headless session, a prompt ignored): the prompter takes the request and
 *   never answers.
 *
 * Linux only: it needs `dbus-run-session` (Debian: dbus-daemon) and `gnome-keyring-daemon` (gnome-keyring).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const TEST_KEYRING_MISSING =
  'The keychain tests need a Secret Service of their own: install dbus and GNOME Keyring ' +
  '(Debian/Ubuntu: `sudo apt-get install -y dbus-daemon gnome-keyring`).';

// The login keyring's password in the test's own HOME: it protects nothing but the tests' fake keys.
const KEYRING_PASSWORD = 'anybrain-test-keyring';

const SILENT_SERVICE = resolve(import.meta.dirname, 'silent-dbus-service.mjs');

export type TestKeychainKind = 'unlocked' | 'silent' | 'locked';

function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Throws `TEST_KEYRING_MISSING` where the tools are missing, so a missing tool fails loudly instead of skipping. */
export function assertTestKeyringAvailable(): void {
  if (process.platform !== 'linux' || !hasCommand('dbus-run-session') || !hasCommand('gnome-keyring-daemon')) {
    throw new Error(TEST_KEYRING_MISSING);
  }
}

export interface TestKeyring {
  /** The HOME the keyring keeps its file in; pass it in the environment of each command. */
  readonly home: string;
  /** `command` wrapped to run in a session bus with this keychain (`unlocked` unless told). */
  wrap(command: readonly string[], kind?: TestKeychainKind): readonly string[];
  dispose(): void;
}

const unlockKeyring = `printf '%s' '${KEYRING_PASSWORD}' | gnome-keyring-daemon --unlock --components=secrets >/dev/null`;

/** Starts the silent service for `name` in the background and waits (at most 10 s) until it owns the name. */
function silentService(name: string): string {
  const ready = `"$HOME/silent-$$"`;
  return (
    `rm -f ${ready}; ${JSON.stringify(process.execPath)} ${JSON.stringify(SILENT_SERVICE)} ${name} ${ready} & ` +
    `tries=0; until [ -s ${ready} ]; do tries=$((tries+1)); [ $tries -gt 200 ] && echo 'silent D-Bus service did not start' >&2 && exit 70; sleep 0.05; done`
  );
}

/** The shell that sets up a session's keychain before the command runs. */
function keychainSetup(kind: TestKeychainKind): string {
  switch (kind) {
    case 'unlocked':
      // The daemon prints its environment (the control socket) on stdout; it is not needed: the bus finds the service.
      return unlockKeyring;
    case 'silent':
      return silentService('org.freedesktop.secrets');
    case 'locked':
      // The login keyring an unlocked session made (with its password), started without unlocking it: the first read
      // of a stored key asks the prompter, which takes the request and never answers.
      return `${silentService('org.gnome.keyring.SystemPrompter')} && gnome-keyring-daemon --start --components=secrets >/dev/null`;
    default: {
      const unknown: never = kind;
      throw new Error(`unknown keychain ${String(unknown)}`);
    }
  }
}

export function createTestKeyring(): TestKeyring {
  assertTestKeyringAvailable();
  const home = mkdtempSync(join(tmpdir(), 'anybrain-keyring-'));
  return {
    home,
    wrap: (command, kind = 'unlocked') => ['env', `HOME=${home}`, 'dbus-run-session', '--', 'sh', '-c', `${keychainSetup(kind)} && exec "$@"`, 'sh', ...command],
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}
