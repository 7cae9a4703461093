/**
 * Starts the fake brains and one web host (`anybrain serve`, as a user would run it) for the whole run.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { startFakeBrains } from '../fake-brains/server';
import { CHROMIUM_MISSING, findChromium } from './chromium';
import { writeE2eEnvironment } from './environment';
import { startOwnHost } from './own-host';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!findChromium()) throw new Error(CHROMIUM_MISSING);
  if (!existsSync(join(repoRoot, 'out', 'cli', 'anybrain.js')) || !existsSync(join(repoRoot, 'out', 'renderer', 'index.html'))) {
    throw new Error('The app is not built. Run `npm run build` before the browser tests (`npm test` does both).');
  }
  const fakeBrains = await startFakeBrains();
  const baseUrlEnv = Object.fromEntries(BRAIN_IDS.map((brain) => [BRAINS[brain].baseUrlVariable, fakeBrains.baseUrlFor(brain)]));
  const host = await startOwnHost({ env: baseUrlEnv, inheritBrainEnvironment: true });
  writeE2eEnvironment({ launchUrl: host.launchUrl, origin: host.origin, fakeBrainsUrl: fakeBrains.url, dataDir: host.dataDir, baseUrlEnv });

  return async () => {
    await host.stop();
    await fakeBrains.close();
  };
}
