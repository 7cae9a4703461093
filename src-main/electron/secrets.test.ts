import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const storage = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret' }));

/** A stand-in cipher: reversible, and its output never contains the plaintext. */
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => storage.available,
    getSelectedStorageBackend: () => storage.backend,
    encryptString: (plainText: string) => Buffer.from(Buffer.from(plainText, 'utf8').map((byte) => byte ^ 0xa5)),
    decryptString: (encrypted: Buffer) => Buffer.from(encrypted.map((byte) => byte ^ 0xa5)).toString('utf8'),
  },
}));

const { createSafeStorageSecretStore } = await import('./secrets');
const { createFileSecretStore, SECRETS_FILE_NAME } = await import('../core/secrets/secret-store');

const SECRET = 'mcp-token-5a7d01';
let dataDir: string;

beforeEach(() => {
  storage.available = true;
  storage.backend = 'gnome_libsecret';
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-electron-secrets-'));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function storedFile(): { secrets: Record<string, { sealing: string; value: string }> } {
  return JSON.parse(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')) as { secrets: Record<string, { sealing: string; value: string }> };
}

describe('the safeStorage secret store', () => {
  it('encrypts values, reads them back, and reads values the command line wrote', () => {
    createFileSecretStore(dataDir).write({ 'from-cli': 'cli-value' });
    const store = createSafeStorageSecretStore(dataDir, 'linux');
    store.write({ token: SECRET });
    expect(storedFile().secrets.token?.sealing).toBe('safe-storage');
    expect(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')).not.toContain(SECRET);
    expect([store.get('token'), store.get('from-cli')]).toEqual([SECRET, 'cli-value']);
    // The command line cannot open the app's encryption: as if the value were not there.
    expect(createFileSecretStore(dataDir).get('token')).toBeNull();
  });

  it('stores values as written in the owner-only file when safeStorage is plaintext-equivalent', () => {
    storage.backend = 'basic_text';
    const store = createSafeStorageSecretStore(dataDir, 'linux');
    store.write({ token: SECRET });
    expect(storedFile().secrets.token).toEqual({ sealing: 'plain', value: SECRET });
    expect(store.get('token')).toBe(SECRET);
  });
});
