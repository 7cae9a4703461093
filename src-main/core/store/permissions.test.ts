import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openCore } from '../app';
import { ensurePrivateFolder, tightenDatabaseFiles } from './permissions';

const posixOnly = process.platform === 'win32' ? it.skip : it;

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

let parent: string;
let previousUmask: number;

beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'anybrain-permissions-'));
  // The usual default: without explicit modes, folders come out 0755 and files 0644.
  previousUmask = process.umask(0o022);
});

afterEach(() => {
  process.umask(previousUmask);
  rmSync(parent, { recursive: true, force: true });
});

describe('data folder permissions', () => {
  posixOnly('creates the data folder 0700 and the database with its WAL files 0600', async () => {
    const dataDir = join(parent, 'data');
    const core = openCore({ dataDir, env: {} });
    // A write, so the WAL holds frames and both companion files exist.
    await core.dispatch('setTheme', { theme: 'dark' });
    const databasePath = join(dataDir, DATABASE_FILE);
    expect([modeOf(dataDir), modeOf(databasePath), modeOf(`${databasePath}-wal`), modeOf(`${databasePath}-shm`)]).toEqual([
      0o700, 0o600, 0o600, 0o600,
    ]);
    await core.dispose();
  });

  posixOnly('tightens a folder and database an older version left readable to everyone', async () => {
    const dataDir = join(parent, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    const first = openCore({ dataDir, env: {} });
    await first.dispose();
    const databasePath = join(dataDir, DATABASE_FILE);
    chmodSync(dataDir, 0o755);
    chmodSync(databasePath, 0o644);

    const second = openCore({ dataDir, env: {} });
    expect([modeOf(dataDir), modeOf(databasePath)]).toEqual([0o700, 0o600]);
    await second.dispose();
  });

  posixOnly('leaves files that do not exist alone', () => {
    const folder = join(parent, 'nested', 'folder');
    ensurePrivateFolder(folder);
    const databasePath = join(folder, 'only.db');
    writeFileSync(databasePath, '');
    tightenDatabaseFiles(databasePath);
    expect([modeOf(folder), modeOf(databasePath)]).toEqual([0o700, 0o600]);
  });

  it('changes nothing on Windows, where modes do not apply', () => {
    const databasePath = join(parent, 'windows.db');
    writeFileSync(databasePath, '');
    chmodSync(databasePath, 0o644);
    tightenDatabaseFiles(databasePath, 'win32');
    expect(modeOf(databasePath)).toBe(process.platform === 'win32' ? modeOf(databasePath) : 0o644);
  });
});
