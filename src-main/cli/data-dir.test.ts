import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformDataDir, resolveDataDir } from './data-dir';

describe('data folder', () => {
  it('prefers --data, then ANYBRAIN_DATA_DIR, then the platform folder', () => {
    expect(resolveDataDir('rel/dir', { ANYBRAIN_DATA_DIR: '/env' })).toBe(resolve('rel/dir'));
    expect(resolveDataDir(undefined, { ANYBRAIN_DATA_DIR: '/env' })).toBe('/env');
  });
  it('matches the desktop app folder on each platform', () => {
    expect(platformDataDir('linux', {})).toBe(join(homedir(), '.config', 'Anybrain'));
    expect(platformDataDir('linux', { XDG_CONFIG_HOME: '/x' })).toBe('/x/Anybrain');
    expect(platformDataDir('darwin', {})).toBe(join(homedir(), 'Library', 'Application Support', 'Anybrain'));
    expect(platformDataDir('win32', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' })).toBe(join('C:\\Users\\a\\AppData\\Roaming', 'Anybrain'));
  });
});
