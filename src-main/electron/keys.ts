/**
 * API keys at rest: encrypted with Electron `safeStorage` (the OS keychain, DPAPI or a Linux secret service) and kept
 * base64 in `<dataDir>/keys.json`, never in the database and never in a log line.
 */
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { z } from 'zod';
import type { BrainId } from '../../src-shared/brains';
import { BRAINS } from '../../src-shared/brains';
import type { KeyStore } from '../core/core-types';
import { readPrivateJsonFile, writePrivateJsonFile } from '../core/secrets/private-json-file';

export const KEYS_FILE_NAME = 'keys.json';

const keysFileSchema = z.object({
  version: z.literal(1),
  keys: z.record(z.string(), z.string()),
});
type KeysFile = z.infer<typeof keysFileSchema>;

/** Why keys cannot be stored here, or null when they can. */
export function keyStorageRefusal(platform: NodeJS.Platform = process.platform): string | null {
  if (!safeStorage.isEncryptionAvailable()) {
    return 'this system offers no encryption for stored secrets';
  }
  // Chromium's basic_text backend encrypts with a fixed, public password: as good as plaintext.
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return 'no secret service (GNOME Keyring, KWallet) is available, and the fallback store is plaintext-equivalent';
  }
  return null;
}

export function createSafeStorageKeyStore(dataDir: string, platform: NodeJS.Platform = process.platform): KeyStore {
  const filePath = join(dataDir, KEYS_FILE_NAME);

  return {
    get canStore(): boolean {
      return keyStorageRefusal(platform) === null;
    },
    get refusal(): string | null {
      const refusal = keyStorageRefusal(platform);
      return refusal === null ? null : `${refusal}, so a key stored here would not be protected`;
    },
    place: "this computer's encrypted key file",

    get(brain: BrainId): string | null {
      const keys = readPrivateJsonFile(filePath, keysFileSchema, 'leave-unreadable', 'keys file')?.keys;
      const encoded = keys && Object.hasOwn(keys, brain) ? keys[brain] : undefined;
      if (encoded === undefined) return null;
      try {
        return safeStorage.decryptString(Buffer.from(encoded, 'base64'));
      } catch {
        // A key written under another OS user or keyring cannot be read back: the brain then has no stored key.
        return null;
      }
    },

    set(brain: BrainId, key: string | null): void {
      const refusal = key === null ? null : keyStorageRefusal(platform);
      if (refusal !== null) {
        const variable = BRAINS[brain].keyVariable;
        const instead = variable === null ? 'This brain needs no key.' : `Set ${variable} in the environment instead.`;
        throw new Error(`Anybrain cannot store the ${BRAINS[brain].label} key securely: ${refusal}. ${instead}`);
      }
      const current = readPrivateJsonFile(filePath, keysFileSchema, 'move-unreadable-aside', 'keys file') ?? { version: 1, keys: {} };
      const keys: Record<string, string> = { ...current.keys };
      if (key === null) {
        if (!Object.hasOwn(keys, brain)) return;
        delete keys[brain];
      } else {
        keys[brain] = safeStorage.encryptString(key).toString('base64');
      }
      writePrivateJsonFile(dataDir, filePath, { version: 1, keys } satisfies KeysFile);
    },
  };
}
