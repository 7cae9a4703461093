/**
 * The Electron main process: one instance, one window, one core. All behaviour lives in the core; this file only
 * wires it to the window and shuts it down cleanly.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Event as ElectronEvent } from 'electron';
import { app, BrowserWindow, dialog, nativeTheme, session } from 'electron';
import { openCore } from '../core/app';
import type { Theme } from '../../src-shared/api';
import type { Core } from '../core/core-types';
import { resolveAppPage } from './app-page';
import type { Disposable } from './ipc';
import { registerIpc } from './ipc';
import { createSafeStorageKeyStore } from './keys';
import { createSafeStorageSecretStore } from './secrets';
import { resolveNativeBinding } from './native-binding';
import { createMainWindow, installSessionSecurity } from './window';

const DATA_DIR_VARIABLE = 'ANYBRAIN_DATA_DIR';
/** A core that does not finish disposing in this time is abandoned: SQLite's WAL keeps committed rows either way. */
const DISPOSE_TIMEOUT_MS = 10_000;

// The bundle is out/main/index.js: the preload, the renderer and the project root sit at fixed places around it.
const bundleDir = dirname(fileURLToPath(import.meta.url));
const preloadPath = join(bundleDir, '..', 'preload', 'index.cjs');
const page = resolveAppPage({
  isPackaged: app.isPackaged,
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
  rendererFile: join(bundleDir, '..', 'renderer', 'index.html'),
});

// Electron's default userData is appData/<package name> in development but appData/<productName> when packaged; the
// command line uses appData/Anybrain (src-main/cli/data-dir.ts). Pinning it keeps one data folder for all of them.
// Chromium's profile and the single-instance lock follow userData, so ANYBRAIN_DATA_DIR also makes a separate instance.
const APP_FOLDER_NAME = 'Anybrain';
const dataDirOverride = process.env[DATA_DIR_VARIABLE];
const userDataDir =
  dataDirOverride !== undefined && dataDirOverride !== '' ? resolve(dataDirOverride) : join(app.getPath('appData'), APP_FOLDER_NAME);
// Owner-only: it holds every conversation (the core tightens an older folder on open).
mkdirSync(userDataDir, { recursive: true, mode: 0o700 });
app.setPath('userData', userDataDir);
const dataDir = app.getPath('userData');

let core: Core | null = null;
let ipc: Disposable | null = null;
let mainWindow: BrowserWindow | null = null;
let shutdown: 'running' | 'disposing' | 'disposed' = 'running';
let windowTheme: Theme = 'system';

// Every renderer sandboxed, whatever its webPreferences say. Must run before `ready`.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    // macOS apps stay open without windows until Cmd+Q.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (core && shutdown === 'running' && BrowserWindow.getAllWindows().length === 0) openWindow(windowTheme);
  });
  app.on('before-quit', holdQuitUntilDisposed);
  app.on('will-quit', holdQuitUntilDisposed);
  app.whenReady().then(start).catch(failStartup);
}

async function start(): Promise<void> {
  installSessionSecurity(session.defaultSession, page);
  const nativeBinding = resolveNativeBinding({
    isPackaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    projectRoot: join(bundleDir, '..', '..'),
    moduleAbi: process.versions.modules,
  });
  core = openCore({ dataDir, keyStore: createSafeStorageKeyStore(dataDir), secretStore: createSafeStorageSecretStore(dataDir), nativeBinding, watchdog: true, keepModelListsFresh: true });
  ipc = registerIpc(core, () => mainWindow, page);
  windowTheme = await savedTheme(core);
  openWindow(windowTheme);
}

function openWindow(theme: Theme): void {
  const prefersDark = theme === 'system' ? nativeTheme.shouldUseDarkColors : theme === 'dark';
  const window = createMainWindow(page, { preloadPath, prefersDark, dataDir });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
}

/** The theme saved in settings, so the window's first frame already has the right background. */
async function savedTheme(openedCore: Core): Promise<Theme> {
  const result = await openedCore.dispatch('getSettings', {});
  if (!result.ok) return 'system';
  const theme = (result.value as { theme?: unknown }).theme;
  return theme === 'light' || theme === 'dark' ? theme : 'system';
}

function holdQuitUntilDisposed(event: ElectronEvent): void {
  if (shutdown === 'disposed') return;
  event.preventDefault();
  if (shutdown === 'disposing') return;
  shutdown = 'disposing';
  void disposeAll().finally(() => {
    shutdown = 'disposed';
    app.quit();
  });
}

async function disposeAll(): Promise<void> {
  ipc?.dispose();
  ipc = null;
  const closing = core;
  core = null;
  if (!closing) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolveTimeout) => {
    timer = setTimeout(() => resolveTimeout('timeout'), DISPOSE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([closing.dispose().then(() => 'disposed' as const), timeout]);
    if (outcome === 'timeout') console.error(`Anybrain: the core did not close within ${DISPOSE_TIMEOUT_MS} ms.`);
  } catch (error) {
    console.error('Anybrain: closing the core failed:', error);
  } finally {
    clearTimeout(timer);
  }
}

function failStartup(error: unknown): void {
  const detail = error instanceof Error ? error.message : String(error);
  // better-sqlite3's error when the Node-ABI build from node_modules is loaded into Electron.
  const hint = /NODE_MODULE_VERSION/.test(detail)
    ? '\n\nThe database driver was built for Node, not Electron: run `npm run build:electron-sqlite`.'
    : '';
  console.error('Anybrain: startup failed:', error);
  dialog.showErrorBox('Anybrain could not start', `${detail}${hint}\n\nData folder: ${dataDir}`);
  shutdown = 'disposing';
  void disposeAll().finally(() => {
    shutdown = 'disposed';
    app.exit(1);
  });
}
