import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachmentLink } from '../../src-shared/attachment-link';
import type { AppPage } from './app-page';

const electron = vi.hoisted(() => ({
  openExternal: vi.fn((_url: string) => Promise.resolve()),
  openPath: vi.fn((_path: string) => Promise.resolve('')),
  windows: [] as FakeWindow[],
}));

interface FakeWindow {
  options: unknown;
  webContents: FakeWebContents;
  events: EventEmitter;
  show: ReturnType<typeof vi.fn>;
  loadURL: ReturnType<typeof vi.fn>;
  loadFile: ReturnType<typeof vi.fn>;
}

type WindowOpenHandler = (details: { url: string }) => { action: string };

class FakeWebContents extends EventEmitter {
  windowOpenHandler: WindowOpenHandler | null = null;
  url = '';
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
}

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents = new FakeWebContents();
    readonly events = new EventEmitter();
    readonly show = vi.fn();
    readonly loadURL = vi.fn(() => Promise.resolve());
    readonly loadFile = vi.fn(() => Promise.resolve());
    constructor(readonly options: unknown) {
      electron.windows.push(this);
    }
    once(name: string, listener: () => void): this {
      this.events.once(name, listener);
      return this;
    }
  }
  return { BrowserWindow, shell: { openExternal: electron.openExternal, openPath: electron.openPath } };
});

const {
  buildWindowOptions,
  contentSecurityPolicy,
  createMainWindow,
  guardWebContents,
  installSessionSecurity,
  openAttachmentFile,
  openExternalIfHttps,
} = await import('./window');

const DATA_DIR = '/home/someone/.config/Anybrain';

const FILE_PAGE: AppPage = {
  kind: 'file',
  filePath: '/opt/anybrain/out/renderer/index.html',
  url: 'file:///opt/anybrain/out/renderer/index.html',
};
const DEV_PAGE: AppPage = { kind: 'dev-server', url: 'http://localhost:5173/', origin: 'http://localhost:5173' };

/** A navigation event as Electron emits it: `url` on the event, `preventDefault` to cancel. */
function navigation(url: string): { url: string; preventDefault: ReturnType<typeof vi.fn> } {
  return { url, preventDefault: vi.fn() };
}

beforeEach(() => {
  electron.openExternal.mockClear();
  electron.openPath.mockClear();
  electron.windows.length = 0;
});

describe('buildWindowOptions', () => {
  it('sets exactly the hardened webPreferences', () => {
    const options = buildWindowOptions({ preloadPath: '/app/out/preload/index.cjs', prefersDark: false });
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    });
  });

  it('stays hidden until ready-to-show, with a sensible size and a themed background', () => {
    const light = buildWindowOptions({ preloadPath: '/p.cjs', prefersDark: false });
    const dark = buildWindowOptions({ preloadPath: '/p.cjs', prefersDark: true });
    expect(light.show).toBe(false);
    expect(light).toMatchObject({ width: 1200, height: 800, minWidth: 640, minHeight: 480 });
    expect(light.backgroundColor).toBe('#ffffff');
    expect(dark.backgroundColor).toBe('#16171a');
  });
});

describe('contentSecurityPolicy', () => {
  it('allows only the app itself in a build', () => {
    expect(contentSecurityPolicy(FILE_PAGE)).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
        "object-src 'none'; base-uri 'none'; form-action 'none'",
    );
  });

  it('adds the dev server and its WebSocket in development', () => {
    const policy = contentSecurityPolicy(DEV_PAGE);
    expect(policy).toContain("script-src 'self' http://localhost:5173 'unsafe-inline'");
    expect(policy).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
  });
});

describe('installSessionSecurity', () => {
  type HeadersListener = (
    details: { responseHeaders?: Record<string, string[]> },
    callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
  ) => void;
  type RequestHandler = (contents: { getURL(): string }, permission: string, callback: (granted: boolean) => void) => void;
  type CheckHandler = (contents: { getURL(): string } | null, permission: string) => boolean;

  function install(page: AppPage) {
    const installed: { headers?: HeadersListener; request?: RequestHandler; check?: CheckHandler } = {};
    const session = {
      webRequest: { onHeadersReceived: (listener: HeadersListener) => (installed.headers = listener) },
      setPermissionRequestHandler: (handler: RequestHandler) => (installed.request = handler),
      setPermissionCheckHandler: (handler: CheckHandler) => (installed.check = handler),
    };
    installSessionSecurity(session as never, page);
    return installed as Required<typeof installed>;
  }

  it('replaces any Content-Security-Policy header and keeps the others', () => {
    const { headers } = install(FILE_PAGE);
    const callback = vi.fn();
    headers({ responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } }, callback);
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [contentSecurityPolicy(FILE_PAGE)] },
    });
  });

  it('denies every permission request except clipboard writes from the app page', () => {
    const { request, check } = install(FILE_PAGE);
    const appContents = { getURL: () => FILE_PAGE.url };
    const foreignContents = { getURL: () => 'https://example.com/' };
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'unknown']) {
      const callback = vi.fn();
      request(appContents, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(check(appContents, permission)).toBe(false);
    }
    const granted = vi.fn();
    request(appContents, 'clipboard-sanitized-write', granted);
    expect(granted).toHaveBeenCalledWith(true);
    const foreign = vi.fn();
    request(foreignContents, 'clipboard-sanitized-write', foreign);
    expect(foreign).toHaveBeenCalledWith(false);
    expect(check(null, 'clipboard-sanitized-write')).toBe(false);
  });
});

describe('openExternalIfHttps', () => {
  it('opens https URLs in the system browser', () => {
    expect(openExternalIfHttps('https://example.com/docs?q=1')).toBe(true);
    expect(electron.openExternal).toHaveBeenCalledWith('https://example.com/docs?q=1');
  });

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'mailto:someone@example.com',
    'data:text/html,<script>alert(1)</script>',
    'not a url',
    '',
  ])('ignores %j', (url) => {
    expect(openExternalIfHttps(url)).toBe(false);
    expect(electron.openExternal).not.toHaveBeenCalled();
  });
});

describe('guardWebContents', () => {
  it('cancels navigation away from the app page, handing only https to the browser', () => {
    const contents = new FakeWebContents();
    guardWebContents(contents as never, FILE_PAGE, DATA_DIR);

    const own = navigation('file:///opt/anybrain/out/renderer/index.html#/conversations/1');
    contents.emit('will-navigate', own);
    expect(own.preventDefault).not.toHaveBeenCalled();

    for (const url of ['file:///etc/passwd', 'http://example.com/', 'https://example.com/']) {
      const away = navigation(url);
      contents.emit('will-navigate', away);
      expect(away.preventDefault).toHaveBeenCalled();
    }
    expect(electron.openExternal.mock.calls).toEqual([['https://example.com/']]);
  });

  it('allows navigation within the dev server origin only', () => {
    const contents = new FakeWebContents();
    guardWebContents(contents as never, DEV_PAGE, DATA_DIR);
    const own = navigation('http://localhost:5173/index.html');
    const otherPort = navigation('http://localhost:5174/');
    contents.emit('will-navigate', own);
    contents.emit('will-navigate', otherPort);
    expect(own.preventDefault).not.toHaveBeenCalled();
    expect(otherPort.preventDefault).toHaveBeenCalled();
  });

  it('denies every new window and opens only https links externally', () => {
    const contents = new FakeWebContents();
    guardWebContents(contents as never, FILE_PAGE, DATA_DIR);
    const handler = contents.windowOpenHandler as WindowOpenHandler;
    for (const url of ['https://example.com/a', 'http://example.com/b', 'file:///etc/passwd', FILE_PAGE.url, 'about:blank']) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    expect(electron.openExternal.mock.calls).toEqual([['https://example.com/a']]);
  });

  it('refuses to attach webviews', () => {
    const contents = new FakeWebContents();
    guardWebContents(contents as never, FILE_PAGE, DATA_DIR);
    const attach = navigation('about:blank');
    contents.emit('will-attach-webview', attach);
    expect(attach.preventDefault).toHaveBeenCalled();
  });
});

describe('createMainWindow', () => {
  it('loads the built file, guards navigation and shows on ready-to-show', () => {
    createMainWindow(FILE_PAGE, { preloadPath: '/p.cjs', prefersDark: true, dataDir: DATA_DIR });
    const [window] = electron.windows;
    if (!window) throw new Error('no window was created');
    expect(window.options).toEqual(buildWindowOptions({ preloadPath: '/p.cjs', prefersDark: true }));
    expect(window.loadFile).toHaveBeenCalledWith(FILE_PAGE.filePath);
    expect(window.loadURL).not.toHaveBeenCalled();
    expect(window.webContents.windowOpenHandler).not.toBeNull();
    expect(window.webContents.listenerCount('will-navigate')).toBe(1);
    expect(window.show).not.toHaveBeenCalled();
    window.events.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledTimes(1);
  });

  it('loads the dev server URL in development', () => {
    createMainWindow(DEV_PAGE, { preloadPath: '/p.cjs', prefersDark: false, dataDir: DATA_DIR });
    expect(electron.windows[0]?.loadURL).toHaveBeenCalledWith('http://localhost:5173/');
  });
});

describe('openAttachmentFile', () => {
  // A 1x1 PNG.
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'anybrain-window-test-'));
    mkdirSync(join(dataDir, 'attachments'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
    for (const [opened] of electron.openPath.mock.calls) rmSync(dirname(opened), { recursive: true, force: true });
  });

  function store(bytes: Buffer): string {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(dataDir, 'attachments', sha256), bytes);
    return sha256;
  }

  it('hands the viewer an owner-only copy named after the attachment, with the extension its bytes call for', async () => {
    const sha256 = store(PNG);
    expect(await openAttachmentFile(dataDir, attachmentLink({ sha256, name: 'holiday photo.jpeg' }))).toBe(true);
    const [[opened] = []] = electron.openPath.mock.calls;
    expect(basename(opened ?? '')).toBe('holiday photo.png');
    expect(readFileSync(opened ?? '')).toEqual(PNG);
    expect(statSync(opened ?? '').mode & 0o777).toBe(0o600);
    expect(opened?.startsWith(join(tmpdir(), 'anybrain-attachment-'))).toBe(true);
  });

  it('opens a script as plain text, so the system never runs it', async () => {
    const sha256 = store(Buffer.from('#!/bin/sh\necho hello\n'));
    expect(await openAttachmentFile(dataDir, attachmentLink({ sha256, name: '../run me?.sh' }))).toBe(true);
    expect(electron.openPath.mock.calls.map(([opened]) => basename(opened))).toEqual(['_run me_.txt']);
  });

  it('opens nothing outside the attachments folder, nor a file that is not there', async () => {
    const outside = join(dataDir, 'anybrain.db');
    writeFileSync(outside, 'SQLite format 3');
    const planted = 'b'.repeat(64);
    symlinkSync(outside, join(dataDir, 'attachments', planted));
    expect(await openAttachmentFile(dataDir, attachmentLink({ sha256: planted, name: 'x.txt' }))).toBe(false);
    expect(await openAttachmentFile(dataDir, attachmentLink({ sha256: 'c'.repeat(64), name: 'x.txt' }))).toBe(false);
    expect(await openAttachmentFile(dataDir, `file://${outside}`)).toBe(false);
    expect(electron.openPath).not.toHaveBeenCalled();
  });

  it('is what the window-open handler does with an attachment link, and no window opens', async () => {
    const sha256 = store(PNG);
    const contents = new FakeWebContents();
    guardWebContents(contents as never, FILE_PAGE, dataDir);
    const handler = contents.windowOpenHandler as WindowOpenHandler;
    expect(handler({ url: attachmentLink({ sha256, name: 'a.png' }) })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(electron.openPath).toHaveBeenCalledTimes(1));
    expect(electron.openExternal).not.toHaveBeenCalled();
  });
});
