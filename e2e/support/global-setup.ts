/**
 * Starts the fake brains and one web host (`anybrain serve`, as a user would run it) for the whole run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { startFakeBrains } from '../fake-brains/server';
import { CHROMIUM_MISSING, findChromium } from './chromium';
import { writeE2eEnvironment } from './environment';

const repoRoot = resolve(import.meta.dirname, '..', '..');

function waitForLaunchUrl(child: ChildProcess): Promise<string> {
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

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!findChromium()) throw new Error(CHROMIUM_MISSING);
  if (!existsSync(join(repoRoot, 'out', 'cli', 'anybrain.js')) || !existsSync(join(repoRoot, 'out', 'renderer', 'index.html'))) {
    throw new Error('The app is not built. Run `npm run build` before the browser tests (`npm test` does both).');
  }
  const fakeBrains = await startFakeBrains();
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-e2e-'));
  const baseUrlEnv = Object.fromEntries(BRAIN_IDS.map((brain) => [BRAINS[brain].baseUrlVariable, fakeBrains.baseUrlFor(brain)]));
  const server = spawn(process.execPath, [join(repoRoot, 'bin', 'anybrain.js'), 'serve', '--port', '0'], {
    cwd: repoRoot,
    env: { ...process.env, ...baseUrlEnv, ANYBRAIN_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const launchUrl = await waitForLaunchUrl(server);
  writeE2eEnvironment({ launchUrl, origin: new URL(launchUrl).origin, fakeBrainsUrl: fakeBrains.url, dataDir, baseUrlEnv });

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolvePromise) => server.once('exit', resolvePromise));
    await fakeBrains.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
