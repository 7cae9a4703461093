import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type StorageBackend = 'basic_text' | 'gnome_libsecret' | 'kwallet5' | 'unknown';

const storage = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret' as StorageBackend }));

/** A stand-in cipher: reversible, and its output never contains the plaintext or its base64. */
const CIPHER_PREFIX = 'v11';
function scramble(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((byte) => byte ^ 0xa5));
}

vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => storage.available,
    getSelectedStorageBackend: () => storage.backend,
    encryptString: (plainText: string) => {
      if (!storage.available) throw new Error('Encryption is not available.');
      return Buffer.concat([Buffer.from(CIPHER_PREFIX), scramble(Buffer.from(plainText, 'utf8'))]);
    },
    decryptString: (encrypted: Buffer) => {
      if (encrypted.subarray(0, CIPHER_PREFIX.length).toString() !== CIPHER_PREFIX) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return scramble(encrypted.subarray(CIPHER_PREFIX.length)).toString('utf8');
    },
  },
}));

const { createSafeStorageKeyStore, KEYS_FILE_NAME } = await import('./keys');

const SECRET = 'sk-ant-test-0123456789abcdef';

let dataDir: string;
let keysFile: string;

beforeEach(() => {
  storage.available = true;
  storage.backend = 'gnome_libsecret';
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
  keysFile = join(dataDir, KEYS_FILE_NAME);
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('refusing storage that is not secret', () => {
  it('refuses the Linux basic_text backend and names the environment variable instead', () => {
    storage.backend = 'basic_text';
    const store = createSafeStorageKeyStore(dataDir, 'linux');
    expect(store.canStore).toBe(false);
    expect(store.refusal).toBe(
      'no secret service (GNOME Keyring, KWallet) is available, and the fallback store is plaintext-equivalent, so a key stored here would not be protected',
    );
    expect(() => store.set('claude', SECRET)).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => store.set('gemini', SECRET)).toThrow(/plaintext-equivalent.*GEMINI_API_KEY/);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses when the system offers no encryption', () => {
    storage.available = false;
    const store = createSafeStorageKeyStore(dataDir, 'darwin');
    expect(store.canStore).toBe(false);
    expect(() => store.set('codex', SECRET)).toThrow(/OPENAI_API_KEY in the environment/);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('accepts a real keyring, and basic_text means nothing outside Linux', () => {
    expect(createSafeStorageKeyStore(dataDir, 'linux').canStore).toBe(true);
    expect(createSafeStorageKeyStore(dataDir, 'linux').refusal).toBeNull();
    storage.backend = 'basic_text';
    expect(createSafeStorageKeyStore(dataDir, 'win32').canStore).toBe(true);
  });

  it('still lets a key be removed', () => {
    createSafeStorageKeyStore(dataDir, 'linux').set('claude', SECRET);
    storage.backend = 'basic_text';
    const store = createSafeStorageKeyStore(dataDir, 'linux');
    store.set('claude', null);
    expect(store.get('claude')).toBeNull();
  });
});

describe('storing keys', () => {
  it('round-trips a key through encryption', () => {
    const store = createSafeStorageKeyStore(dataDir, 'linux');
    expect(store.get('claude')).toBeNull();
    store.set('claude', SECRET);
    store.set('kimi', 'moonshot-key');
    expect(store.get('claude')).toBe(SECRET);
    expect(createSafeStorageKeyStore(dataDir, 'linux').get('kimi')).toBe('moonshot-key');
    expect(store.get('grok')).toBeNull();
  });

  it('writes the file owner-only, with no temporary file left behind', () => {
    createSafeStorageKeyStore(dataDir, 'linux').set('claude', SECRET);
    expect(readdirSync(dataDir)).toEqual([KEYS_FILE_NAME]);
    if (process.platform !== 'win32') expect(statSync(keysFile).mode & 0o777).toBe(0o600);
  });

  it('never writes the key in clear, nor merely base64-encoded', () => {
    createSafeStorageKeyStore(dataDir, 'linux').set('claude', SECRET);
    const text = readFileSync(keysFile, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(JSON.parse(text)).toEqual({ version: 1, keys: { claude: expect.any(String) } });
  });

  it('never logs the key', () => {
    const lines: unknown[][] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args)),
    );
    const store = createSafeStorageKeyStore(dataDir, 'linux');
    store.set('claude', SECRET);
    store.get('claude');
    storage.backend = 'basic_text';
    let refusal = '';
    try {
      store.set('claude', SECRET);
    } catch (error) {
      refusal = (error as Error).message;
    }
    expect(refusal).toMatch(/cannot store/);
    expect(refusal).not.toContain(SECRET);
    spies.forEach((spy) => spy.mockRestore());
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('removes a key with null and keeps the others', () => {
    const store = createSafeStorageKeyStore(dataDir, 'linux');
    store.set('claude', SECRET);
    store.set('glm', 'zai-key');
    store.set('claude', null);
    expect(store.get('claude')).toBeNull();
    expect(store.get('glm')).toBe('zai-key');
    expect(Object.keys(JSON.parse(readFileSync(keysFile, 'utf8')).keys)).toEqual(['glm']);
  });
});

describe('reading damaged files', () => {
  it('answers null when a key cannot be decrypted', () => {
    writeFileSync(keysFile, JSON.stringify({ version: 1, keys: { claude: Buffer.from('garbage').toString('base64') } }));
    expect(createSafeStorageKeyStore(dataDir, 'linux').get('claude')).toBeNull();
  });

  it('ignores names that are not own entries of the file', () => {
    writeFileSync(keysFile, JSON.stringify({ version: 1, keys: {} }));
    expect(createSafeStorageKeyStore(dataDir, 'linux').get('toString' as never)).toBeNull();
  });

  it('moves an unreadable file aside before saving a new key', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeFileSync(keysFile, '{ not json');
    const store = createSafeStorageKeyStore(dataDir, 'linux');
    expect(store.get('claude')).toBeNull();
    store.set('claude', SECRET);
    warn.mockRestore();
    expect(store.get('claude')).toBe(SECRET);
    const aside = readdirSync(dataDir).filter((name) => name.startsWith(`${KEYS_FILE_NAME}.unreadable-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dataDir, aside[0] as string), 'utf8')).toBe('{ not json');
  });
});
