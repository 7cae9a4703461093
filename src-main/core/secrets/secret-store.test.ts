import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileSecretStore, PLAIN_SEALING, SECRETS_FILE_NAME, type SecretSealing } from './secret-store';

let dataDir: string;
let previousUmask: number;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-secrets-'));
  previousUmask = process.umask(0o022);
});

afterEach(() => {
  process.umask(previousUmask);
  rmSync(dataDir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** Stands in for safeStorage: reversible, and visibly not the value. */
const reversed: SecretSealing = {
  kind: 'reversed',
  seal: (value) => [...value].reverse().join(''),
  open: (sealed) => [...sealed].reverse().join(''),
};

describe('the file secret store', () => {
  it('writes an owner-only file, sets and removes values in one batch, and reads them back', () => {
    const store = createFileSecretStore(dataDir);
    store.write({ 'mcp-env/a/TOKEN': 'one', 'mcp-env/a/MODE': 'two' });
    store.write({ 'mcp-env/a/TOKEN': null, 'mcp-env/b/TOKEN': 'three' });
    expect([store.get('mcp-env/a/TOKEN'), store.get('mcp-env/a/MODE'), store.get('mcp-env/b/TOKEN'), store.get('missing')]).toEqual([
      null,
      'two',
      'three',
      null,
    ]);
    const filePath = join(dataDir, SECRETS_FILE_NAME);
    expect(JSON.parse(readFileSync(filePath, 'utf8'))).toEqual({
      version: 1,
      secrets: { 'mcp-env/a/MODE': { sealing: 'plain', value: 'two' }, 'mcp-env/b/TOKEN': { sealing: 'plain', value: 'three' } },
    });
    expect(statSync(filePath).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual([SECRETS_FILE_NAME]);
  });

  it('seals with the host sealing, opens values another host wrote where it can, and ignores the rest', () => {
    createFileSecretStore(dataDir).write({ plain: 'from-the-cli' });
    const sealedStore = createFileSecretStore(dataDir, { sealing: reversed, alsoOpens: [] });
    sealedStore.write({ sealed: 'from-the-app' });
    expect(JSON.parse(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')).secrets.sealed).toEqual({ sealing: 'reversed', value: 'ppa-eht-morf' });
    expect(sealedStore.get('plain')).toBeNull();
    const plainStore = createFileSecretStore(dataDir);
    expect([plainStore.get('plain'), plainStore.get('sealed')]).toEqual(['from-the-cli', null]);
    const both = createFileSecretStore(dataDir, { sealing: reversed, alsoOpens: [PLAIN_SEALING] });
    expect([both.get('plain'), both.get('sealed')]).toEqual(['from-the-cli', 'from-the-app']);
    const failing: SecretSealing = { ...reversed, open: () => { throw new Error('another keyring'); } };
    expect(createFileSecretStore(dataDir, { sealing: failing }).get('sealed')).toBeNull();
  });

  it('reads an unreadable file as empty and moves it aside, without logging its content, before writing', () => {
    const filePath = join(dataDir, SECRETS_FILE_NAME);
    writeFileSync(filePath, 'not json: hunter2');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = createFileSecretStore(dataDir);
    expect(store.get('anything')).toBeNull();
    store.write({ fresh: 'value' });
    expect(store.get('fresh')).toBe('value');
    const aside = readdirSync(dataDir).filter((name) => name.startsWith(`${SECRETS_FILE_NAME}.unreadable-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dataDir, aside[0] ?? ''), 'utf8')).toBe('not json: hunter2');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).not.toContain('hunter2');
  });
});
