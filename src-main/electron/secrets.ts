/**
 * The Electron shell's secret store for MCP environment values: the core's `secrets.json` with each value encrypted by
 * `safeStorage`. Where safeStorage offers no real encryption (no secret service on Linux: the `basic_text` backend),
 * values are stored as written in the owner-only file, exactly as the web host and the command line store them, so a
 * server configured there still starts. Values the command line wrote are read here too.
 */
import { safeStorage } from 'electron';
import { createFileSecretStore, PLAIN_SEALING, type SecretSealing, type SecretStore } from '../core/secrets/secret-store';
import { keyStorageRefusal } from './keys';

export const SAFE_STORAGE_SEALING: SecretSealing = {
  kind: 'safe-storage',
  seal: (value) => safeStorage.encryptString(value).toString('base64'),
  open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
};

export function createSafeStorageSecretStore(dataDir: string, platform: NodeJS.Platform = process.platform): SecretStore {
  const reader = createFileSecretStore(dataDir, { sealing: SAFE_STORAGE_SEALING, alsoOpens: [PLAIN_SEALING] });
  return {
    get: (name) => reader.get(name),
    getMany: (names) => reader.getMany(names),
    write(changes) {
      // Decided per write: safeStorage's backend is known only once the app is ready, and may change between runs.
      const sealing = keyStorageRefusal(platform) === null ? SAFE_STORAGE_SEALING : PLAIN_SEALING;
      createFileSecretStore(dataDir, { sealing, alsoOpens: [SAFE_STORAGE_SEALING, PLAIN_SEALING] }).write(changes);
    },
  };
}
