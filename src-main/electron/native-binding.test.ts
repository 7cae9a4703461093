import { describe, expect, it, vi } from 'vitest';
import { nativeBindingPath, resolveNativeBinding } from './native-binding';

const DEVELOPMENT = { isPackaged: false, resourcesPath: '/unused', projectRoot: '/work/anybrain', moduleAbi: '150' };
const PACKAGED = { isPackaged: true, resourcesPath: '/opt/Anybrain/resources', projectRoot: '/unused', moduleAbi: '150' };

describe('nativeBindingPath', () => {
  it('looks in build/native/electron-<abi>/ during development', () => {
    expect(nativeBindingPath(DEVELOPMENT)).toBe('/work/anybrain/build/native/electron-150/better_sqlite3.node');
  });

  it('looks in resources/native/ in a packaged app', () => {
    expect(nativeBindingPath(PACKAGED)).toBe('/opt/Anybrain/resources/native/better_sqlite3.node');
  });
});

describe('resolveNativeBinding', () => {
  it('answers the path when the binary exists, without a warning', () => {
    const warn = vi.fn();
    expect(resolveNativeBinding(DEVELOPMENT, () => true, warn)).toBe('/work/anybrain/build/native/electron-150/better_sqlite3.node');
    expect(warn).not.toHaveBeenCalled();
  });

  it('answers undefined with one warning naming the path and the fix', () => {
    const warn = vi.fn();
    expect(resolveNativeBinding(DEVELOPMENT, () => false, warn)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('/work/anybrain/build/native/electron-150/better_sqlite3.node');
    expect(warn.mock.calls[0]?.[0]).toContain('npm run build:electron-sqlite');
  });

  it('tells a packaged app user to reinstall', () => {
    const warn = vi.fn();
    expect(resolveNativeBinding(PACKAGED, () => false, warn)).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toContain('reinstall');
  });
});
