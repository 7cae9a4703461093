import { describe, expect, it } from 'vitest';
import { isAppUrl, resolveAppPage } from './app-page';

const RENDERER_FILE = '/opt/anybrain/out/renderer/index.html';

describe('resolveAppPage', () => {
  it('uses the built file when no dev server is set', () => {
    expect(resolveAppPage({ isPackaged: false, devServerUrl: undefined, rendererFile: RENDERER_FILE })).toEqual({
      kind: 'file',
      filePath: RENDERER_FILE,
      url: 'file:///opt/anybrain/out/renderer/index.html',
    });
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    const page = resolveAppPage({ isPackaged: true, devServerUrl: 'http://localhost:5173', rendererFile: RENDERER_FILE });
    expect(page.kind).toBe('file');
  });

  it('follows a loopback dev server in development', () => {
    expect(resolveAppPage({ isPackaged: false, devServerUrl: 'http://localhost:5173', rendererFile: RENDERER_FILE })).toEqual({
      kind: 'dev-server',
      url: 'http://localhost:5173/',
      origin: 'http://localhost:5173',
    });
  });

  it.each(['https://example.com/', 'http://192.168.1.2:5173/', 'file:///tmp/index.html', 'nonsense'])('refuses %j as a dev server', (url) => {
    expect(() => resolveAppPage({ isPackaged: false, devServerUrl: url, rendererFile: RENDERER_FILE })).toThrow(/localhost/);
  });
});

describe('isAppUrl', () => {
  const filePage = resolveAppPage({ isPackaged: true, devServerUrl: undefined, rendererFile: RENDERER_FILE });

  it('accepts the built file with any hash or query', () => {
    expect(isAppUrl(filePage, 'file:///opt/anybrain/out/renderer/index.html')).toBe(true);
    expect(isAppUrl(filePage, 'file:///opt/anybrain/out/renderer/index.html#/c/1')).toBe(true);
  });

  it('refuses other files, even in the same folder', () => {
    expect(isAppUrl(filePage, 'file:///opt/anybrain/out/renderer/other.html')).toBe(false);
    expect(isAppUrl(filePage, 'file:///etc/passwd')).toBe(false);
    expect(isAppUrl(filePage, 'file://remote-host/opt/anybrain/out/renderer/index.html')).toBe(false);
    expect(isAppUrl(filePage, 'https://example.com/opt/anybrain/out/renderer/index.html')).toBe(false);
    expect(isAppUrl(filePage, '')).toBe(false);
  });

  it('compares origins for the dev server', () => {
    const devPage = resolveAppPage({ isPackaged: false, devServerUrl: 'http://localhost:5173', rendererFile: RENDERER_FILE });
    expect(isAppUrl(devPage, 'http://localhost:5173/src/main.tsx')).toBe(true);
    expect(isAppUrl(devPage, 'http://127.0.0.1:5173/')).toBe(false);
    expect(isAppUrl(devPage, 'https://localhost:5173/')).toBe(false);
  });
});
