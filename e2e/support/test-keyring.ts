/**
 * A Secret Service of the tests' own, so keychain tests never touch the keyring of the person running them: each
 * command runs in a fresh D-Bus session (`dbus-run-session`) with GNOME Keyring started and unlocked inside it, and
 * `HOME` pointing at a folder of the test's, where the keyring keeps its file. Two commands run with the same
 * folder see the same keys, as two sessions of one user would.
 *
 * Linux only: it needs `dbus-run-session` (Debian: dbus-daemon) and `gnome-keyring-daemon` (gnome-keyring).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_KEYRING_MISSING =
  'The keychain tests need a Secret Service of their own: install dbus and GNOME Keyring ' +
  '(Debian/Ubuntu: `sudo apt-get install -y dbus-daemon gnome-keyring`).';

// The login keyring's password in the test's own HOME: it protects nothing but the tests' fake keys.
const KEYRING_PASSWORD = 'anybrain-test-keyring';

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
  /** `command` wrapped to run in a session bus with this keyring unlocked. */
  wrap(command: readonly string[]): readonly string[];
  dispose(): void;
}

export function createTestKeyring(): TestKeyring {
  assertTestKeyringAvailable();
  const home = mkdtempSync(join(tmpdir(), 'anybrain-keyring-'));
  // The daemon prints its environment (the control socket) on stdout; it is not needed: the bus finds the service.
  const script = `printf '%s' '${KEYRING_PASSWORD}' | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"`;
  return {
    home,
    wrap: (command) => ['env', `HOME=${home}`, 'dbus-run-session', '--', 'sh', '-c', script, 'sh', ...command],
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}
