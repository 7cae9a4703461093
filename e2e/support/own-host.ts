/**
 * `anybrain serve`, started as a user would run it, on a data folder of its own: the global setup's shared host, the
 * specs that need a host with a different environment (a first run, keys in a keychain), and the browser benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export interface OwnHost {
  readonly launchUrl: string;
  readonly origin: string;
  readonly dataDir: string;
  /** Stops the host; the data folder is removed too when the host made it. */
  stop(): Promise<void>;
}

export interface OwnHostOptions {
  /** Variables on top of the environment; brain keys and base URLs not named here are removed. */
  readonly env?: Readonly<Record<string, string>>;
  /** Keep the test process's brain keys and base URLs instead of removing those not named in `env`. */
  readonly inheritBrainEnvironment?: boolean;
  /** An existing data folder (kept on stop); by default a fresh one is made and removed on stop. */
  readonly dataDir?: string;
  /** The command that runs `node bin/anybrain.js serve …` (e.g. under a session bus); default: that command itself. */
  readonly wrap?: (command: readonly string[]) => readonly string[];
}

export function waitForLaunchUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`anybrain serve printed no address in 30 s.\n${stderr}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /running at (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anybrain serve exited with ${code} before printing its address.\n${stderr}`));
    });
  });
}

export async function startOwnHost(options: OwnHostOptions = {}): Promise<OwnHost> {
  const madeDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'anybrain-host-'));
  const env = options.env ?? {};
  const environment: NodeJS.ProcessEnv = { ...process.env, ...env, ANYBRAIN_DATA_DIR: dataDir };
  if (options.inheritBrainEnvironment !== true) {
    for (const brain of BRAIN_IDS) {
      const variable = BRAINS[brain].keyVariable;
      if (variable !== null && !(variable in env)) delete environment[variable];
      if (!(BRAINS[brain].baseUrlVariable in env)) delete environment[BRAINS[brain].baseUrlVariable];
    }
  }
  const serve = [process.execPath, join(repoRoot, 'bin', 'anybrain.js'), 'serve', '--port', '0'];
  const [command, ...args] = options.wrap ? options.wrap(serve) : serve;
  if (command === undefined) throw new Error('The host command is empty.');
  // A process group of its own: a wrapper (dbus-run-session) does not pass a signal on to the host it started, so the
  // host, the session bus and the keyring daemon are stopped together, as a group.
  const child = spawn(command, args, { cwd: repoRoot, env: environment, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // What the host wrote last, told when it ends while the tests still use it: a host that stopped answering is
  // otherwise seen only as refused connections in the tests after it.
  let stderrTail = '';
  let stopping = false;
  child.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-8_000)));
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`anybrain serve (data folder ${dataDir}) ended while the tests used it, ${signal === null ? `exit code ${code}` : `signal ${signal}`}; it wrote last:\n${stderrTail}`);
  });
  let launchUrl: string;
  try {
    launchUrl = await waitForLaunchUrl(child);
  } catch (error) {
    stopping = true;
    await stopGroup(child, 'SIGKILL');
    if (madeDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    launchUrl,
    origin: new URL(launchUrl).origin,
    dataDir,
    stop: async () => {
      stopping = true;
      await stopGroup(child, 'SIGTERM');
      if (madeDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whether any process of the group `groupId` is still running. */
function groupAlive(groupId: number): boolean {
  return signalGroup(groupId, 0);
}

/**
 * Signals every process of the child's group and waits until all have exited: after 10 s it kills what is left, and
 * after 2 s more it stops waiting (a process whose parent never collects it stays in the table, in no state to run).
 */
async function stopGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const groupId = child.pid;
  if (groupId === undefined || !groupAlive(groupId)) return;
  signalGroup(groupId, signal);
  if (await groupExited(groupId, 10_000)) return;
  signalGroup(groupId, 'SIGKILL');
  await groupExited(groupId, 2_000);
}

function signalGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch {
    // ESRCH: the group's last process has already exited.
    return false;
  }
}

async function groupExited(groupId: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (groupAlive(groupId)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 25));
  }
  return true;
}
