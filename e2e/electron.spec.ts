/**
 * The desktop shell end to end: the built app (`out/main/index.js`) in a real Electron, with its own data folder.
 * Runs wherever an Electron binary is installed; elsewhere it is skipped, naming the missing binary.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const repoRoot = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/**
 * The path `require('electron')` answers in Node, worked out the same way without requiring it: electron's index.js
 * downloads the binary when it is missing, and this check must not reach for the network. Null when no download
 * ever happened (no path.txt).
 */
function electronBinaryPath(): string | null {
  const packageDir = dirname(require.resolve('electron/package.json'));
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) return join(override, executable ?? 'electron');
  return executable === null ? null : join(packageDir, 'dist', executable);
}

const binary = electronBinaryPath();
const missingBinary =
  binary === null
    ? 'No Electron binary: node_modules/electron has no path.txt, so its binary was never downloaded'
    : existsSync(binary)
      ? null
      : `No Electron binary at ${binary}`;

test.skip(missingBinary !== null, `${missingBinary}; the desktop shell cannot be launched on this machine.`);

test('the desktop window is isolated, exposes the bridge, and creates a conversation', async () => {
  if (binary === null) throw new Error('unreachable: the test is skipped without a binary');
  const mainBundle = join(repoRoot, 'out', 'main', 'index.js');
  expect(existsSync(mainBundle), 'run `npm run build` first').toBe(true);
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-electron-e2e-'));
  // The built page, not a dev server a developer's shell may still point at; Electron, not Node.
  const { ELECTRON_RENDERER_URL: _devServer, ELECTRON_RUN_AS_NODE: _runAsNode, ...inherited } = process.env;
  const app = await electron.launch({
    executablePath: binary,
    args: ['out/main/index.js'],
    cwd: repoRoot,
    env: { ...inherited, ANYBRAIN_DATA_DIR: dataDir } as Record<string, string>,
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('new-conversation').first()).toBeVisible();

    const isolation = await page.evaluate(() => {
      const world = window as unknown as { require?: unknown; process?: unknown; anybrain?: Record<string, unknown> };
      const bridge = world.anybrain ?? {};
      const api = (bridge.api ?? {}) as Record<string, unknown>;
      return {
        requireIsUndefined: world.require === undefined,
        processIsUndefined: world.process === undefined,
        bridgeKeys: Object.keys(bridge).sort(),
        host: bridge.host,
        listConversations: typeof api.listConversations,
      };
    });
    expect(isolation).toEqual({
      requireIsUndefined: true,
      processIsUndefined: true,
      bridgeKeys: ['api', 'host', 'onEvent'],
      host: 'electron',
      listConversations: 'function',
    });

    const before = await page.getByTestId('conversation-item').count();
    await page.getByTestId('new-conversation').first().click();
    await expect(page.getByTestId('conversation-item')).toHaveCount(before + 1);

    // The data landed in the folder the shell was given.
    expect(existsSync(join(dataDir, 'anybrain.db'))).toBe(true);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
