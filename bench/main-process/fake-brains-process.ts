/**
 * Starts e2e/fake-brains in a child process (see fake-brains-entry.ts) and hands back the environment that points
 * every brain at it, the way a person points Anybrain at a local server: `ANYBRAIN_<BRAIN>_BASE_URL`, and a key in
 * the brain's key variable (the fake takes any key; the OpenAI SDK path refuses to send without one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BRAIN_IDS, BRAINS, type BrainId } from '../../src-shared/brains';
import { tailLines, within } from '../support/bounded-wait';

export const FAKE_KEY = 'sk-bench-fake-key';

/** Starting the process (tsx compiles the fake on a loaded machine) until it prints its address. */
const START_BOUND_MS = 60_000;
/** From its input's end to its exit; it is killed after that. */
const EXIT_BOUND_MS = 15_000;

export interface FakeBrainsProcess {
  readonly url: string;
  /** The base URL a brain's client is given, in the shape `FakeBrains.baseUrlFor` gives it. */
  baseUrlFor(brain: BrainId): string;
  /** Base URL and key variables for every brain. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export async function startFakeBrainsProcess(): Promise<FakeBrainsProcess> {
  const entry = fileURLToPath(new URL('./fake-brains-entry.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Passed on as it comes, and its tail kept for a lapsed wait's message.
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const state = (): string =>
    `the process (pid ${child.pid ?? 'none'}) ${child.exitCode === null && child.signalCode === null ? 'was still running' : `had exited (${child.exitCode ?? child.signalCode})`}; ` +
    `its stderr ended with: ${tailLines(stderr, 5) || '(nothing)'}`;
  const started = new Promise<{ url: string; baseUrls: Record<BrainId, string> }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve(JSON.parse(line) as { url: string; baseUrls: Record<BrainId, string> });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The fake brains exited with ${code} before listening; ${state()}`)));
  });
  const { url, baseUrls } = await within(started, {
    what: 'the fake brains process never printed its address',
    withinMs: START_BOUND_MS,
    observe: state,
    abandon: () => child.kill('SIGKILL'),
  });
  const baseUrlFor = (brain: BrainId): string => baseUrls[brain];
  const env: Record<string, string> = {};
  for (const brain of BRAIN_IDS) {
    env[BRAINS[brain].baseUrlVariable] = baseUrlFor(brain);
    const keyVariable = BRAINS[brain].keyVariable;
    if (keyVariable !== null) env[keyVariable] = FAKE_KEY;
  }
  return {
    url,
    baseUrlFor,
    env,
    close: () =>
      within(
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.stdin!.end();
        }),
        { what: 'the fake brains process did not exit after its input ended (killed it)', withinMs: EXIT_BOUND_MS, observe: state, abandon: () => child.kill('SIGKILL') },
      ),
  };
}
