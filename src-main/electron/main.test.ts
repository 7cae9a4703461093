import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mock } from 'vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const shell = vi.hoisted(() => ({
  state: {} as {
    app: ReturnType<typeof createFakeApp>;
    windows: FakeWindow[];
    core: { dispose: Mock<() => Promise<void>>; dispatch: Mock<() => Promise<unknown>> };
    openCore: Mock<(...args: unknown[]) => unknown>;
    showErrorBox: Mock<(...args: unknown[]) => void>;
  },
}));

interface FakeWindow {
  events: EventEmitter;
  minimized: boolean;
  restore: Mock<() => void>;
  focus: Mock<() => void>;
}

function createFakeApp(lockGranted: boolean, appData: string) {
  const events = new EventEmitter();
  const calls: string[] = [];
  let userData = '/home/someone/.config/anybrain';
  return {
    events,
    calls,
    isPackaged: false,
    setPath: vi.fn((name: string, path: string) => {
      calls.push(`setPath ${name}`);
      if (name === 'userData') userData = path;
    }),
    getPath: vi.fn((name: string) => (name === 'appData' ? appData : userData)),
    enableSandbox: vi.fn(() => calls.push('enableSandbox')),
    requestSingleInstanceLock: vi.fn(() => {
      calls.push('requestSingleInstanceLock');
      return lockGranted;
    }),
    quit: vi.fn(() => calls.push('quit')),
    exit: vi.fn(),
    whenReady: () => Promise.resolve(),
    on(name: string, listener: (...args: unknown[]) => void) {
      events.on(name, listener);
      return this;
    },
  };
}

vi.mock('electron', () => ({
  get app() {
    return shell.state.app;
  },
  BrowserWindow: { getAllWindows: () => shell.state.windows },
  dialog: { showErrorBox: (...args: unknown[]) => shell.state.showErrorBox(...args) },
  nativeTheme: { shouldUseDarkColors: false },
  session: { defaultSession: {} },
}));

vi.mock('../core/app', () => ({ openCore: (...args: unknown[]) => shell.state.openCore(...args) }));
vi.mock('./window', () => ({
  installSessionSecurity: vi.fn(),
  createMainWindow: vi.fn(() => {
    const window: FakeWindow = { events: new EventEmitter(), minimized: true, restore: vi.fn(), focus: vi.fn() };
    shell.state.windows.push(window);
    return {
      on: (name: string, listener: () => void) => window.events.on(name, listener),
      isDestroyed: () => false,
      isMinimized: () => window.minimized,
      restore: window.restore,
      focus: window.focus,
    };
  }),
}));
vi.mock('./ipc', () => ({ registerIpc: vi.fn(() => ({ dispose: vi.fn() })) }));
vi.mock('./keys', () => ({ createSafeStorageKeyStore: vi.fn(() => ({ canStore: true })) }));
vi.mock('./secrets', () => ({ createSafeStorageSecretStore: vi.fn(() => ({ sealing: 'safe-storage' })) }));
vi.mock('./native-binding', () => ({ resolveNativeBinding: vi.fn(() => '/native/better_sqlite3.node') }));

const originalDataDir = process.env.ANYBRAIN_DATA_DIR;
/** Stands in for the platform's app-data folder (~/.config on Linux); main creates appData/Anybrain inside it. */
const appData = join(tmpdir(), `anybrain-main-test-appdata-${process.pid}`);

async function launch({ lockGranted = true, dataDir }: { lockGranted?: boolean; dataDir?: string } = {}) {
  if (dataDir === undefined) delete process.env.ANYBRAIN_DATA_DIR;
  else process.env.ANYBRAIN_DATA_DIR = dataDir;
  shell.state.app = createFakeApp(lockGranted, appData);
  vi.resetModules();
  await import('./main');
  // Let `whenReady().then(start)` and the theme lookup settle.
  await new Promise((resolveTick) => setTimeout(resolveTick, 0));
  return shell.state.app;
}

function quitEvent() {
  return { preventDefault: vi.fn() };
}

beforeEach(() => {
  shell.state.windows = [];
  shell.state.core = {
    dispose: vi.fn(() => Promise.resolve()),
    dispatch: vi.fn(() => Promise.resolve({ ok: true, value: { theme: 'dark' } })),
  };
  shell.state.openCore = vi.fn(() => shell.state.core);
  shell.state.showErrorBox = vi.fn();
});

afterEach(() => {
  rmSync(appData, { recursive: true, force: true });
  if (originalDataDir === undefined) delete process.env.ANYBRAIN_DATA_DIR;
  else process.env.ANYBRAIN_DATA_DIR = originalDataDir;
});

describe('startup', () => {
  it('opens the core in appData/Anybrain (where the command line looks) with the key and secret stores and the native binding', async () => {
    const app = await launch();
    const dataDir = join(appData, 'Anybrain');
    expect(app.setPath).toHaveBeenCalledWith('userData', dataDir);
    expect(shell.state.openCore).toHaveBeenCalledWith({
      dataDir,
      keyStore: { canStore: true },
      secretStore: { sealing: 'safe-storage' },
      nativeBinding: '/native/better_sqlite3.node',
      watchdog: true,
      keepModelListsFresh: true,
    });
    expect(shell.state.windows).toHaveLength(1);
  });

  it('uses ANYBRAIN_DATA_DIR as userData before taking the single-instance lock', async () => {
    const dataDir = join(tmpdir(), `anybrain-main-test-${process.pid}`);
    const app = await launch({ dataDir });
    expect(app.setPath).toHaveBeenCalledWith('userData', dataDir);
    expect(app.calls.indexOf('setPath userData')).toBeLessThan(app.calls.indexOf('requestSingleInstanceLock'));
    expect(app.calls.indexOf('enableSandbox')).toBeLessThan(app.calls.indexOf('requestSingleInstanceLock'));
    expect(shell.state.openCore).toHaveBeenCalledWith(expect.objectContaining({ dataDir }));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('quits at once as a second instance, without opening the core', async () => {
    const app = await launch({ lockGranted: false });
    expect(app.quit).toHaveBeenCalled();
    expect(shell.state.openCore).not.toHaveBeenCalled();
  });

  it('shows why startup failed and exits with 1', async () => {
    shell.state.openCore = vi.fn(() => {
      throw new Error('database is from a newer Anybrain');
    });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = await launch();
    await vi.waitFor(() => expect(app.exit).toHaveBeenCalledWith(1));
    consoleError.mockRestore();
    expect(shell.state.showErrorBox).toHaveBeenCalledWith('Anybrain could not start', expect.stringContaining('newer Anybrain'));
  });
});

describe('a second launch', () => {
  it('restores and focuses the existing window', async () => {
    const app = await launch();
    app.events.emit('second-instance');
    const [window] = shell.state.windows;
    expect(window?.restore).toHaveBeenCalled();
    expect(window?.focus).toHaveBeenCalled();
  });
});

describe('quitting', () => {
  it('holds the quit until the core is disposed, then quits once', async () => {
    let finishDispose = (): void => undefined;
    shell.state.core.dispose = vi.fn(() => new Promise<void>((resolveDispose) => (finishDispose = resolveDispose)));
    const app = await launch();

    const first = quitEvent();
    app.events.emit('before-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(shell.state.core.dispose).toHaveBeenCalledTimes(1);

    // A second quit request while disposing is held too, without a second dispose.
    const during = quitEvent();
    app.events.emit('will-quit', during);
    expect(during.preventDefault).toHaveBeenCalled();
    expect(app.quit).not.toHaveBeenCalled();

    finishDispose();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    const after = quitEvent();
    app.events.emit('before-quit', after);
    app.events.emit('will-quit', after);
    expect(after.preventDefault).not.toHaveBeenCalled();
    expect(shell.state.core.dispose).toHaveBeenCalledTimes(1);
  });

  it('quits when the last window closes, except on macOS', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
    try {
      Object.defineProperty(process, 'platform', { value: 'darwin' });
      const mac = await launch();
      mac.events.emit('window-all-closed');
      expect(mac.quit).not.toHaveBeenCalled();

      Object.defineProperty(process, 'platform', { value: 'linux' });
      const linux = await launch();
      linux.events.emit('window-all-closed');
      expect(linux.quit).toHaveBeenCalled();
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});
