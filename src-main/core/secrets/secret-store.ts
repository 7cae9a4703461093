/**
 * Secrets the main process keeps for itself (an MCP server's environment values): never in SQLite, never sent to the
 * renderer, never in an export or a log line. One file in the data folder, `secrets.json`, owner-only (0600) from
 * the moment it exists. Each value is sealed by the host that wrote it: the Electron shell encrypts with
 * `safeStorage`; the web host and the command line, which have no keychain wired yet, store it as written
 * (`plain`), relying on the file's mode.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readPrivateJsonFile, writePrivateJsonFile } from './private-json-file';

export const SECRETS_FILE_NAME = 'secrets.json';

/** Where a host keeps its secrets. Names are the caller's own namespace (e.g. `mcp-env/<server>/<VARIABLE>`). */
export interface SecretStore {
  /** The value, or null when there is none or this host cannot unseal it (another host's encryption). */
  get(name: string): string | null;
  /** The values of several names from one read of the store; a name with no value this host can unseal is absent. */
  getMany(names: readonly string[]): Map<string, string>;
  /** Sets each named value; `null` removes it. One write for the whole batch. */
  write(changes: Readonly<Record<string, string | null>>): void;
}

/** How a value is sealed at rest. `kind` is stored beside the value so a host knows which values it can open. */
export interface SecretSealing {
  readonly kind: string;
  seal(value: string): string;
  /** Throws when the value cannot be opened here. */
  open(sealed: string): string;
}

/** Stored as written; the file's owner-only mode is the protection. */
export const PLAIN_SEALING: SecretSealing = { kind: 'plain', seal: (value) => value, open: (sealed) => sealed };

const secretsFileSchema = z.object({
  version: z.literal(1),
  secrets: z.record(z.string(), z.object({ sealing: z.string(), value: z.string() })),
});
type SecretsFile = z.infer<typeof secretsFileSchema>;

export interface FileSecretStoreOptions {
  /** How new values are sealed. */
  readonly sealing: SecretSealing;
  /** The sealings this host can also open (values another host wrote), besides its own. */
  readonly alsoOpens?: readonly SecretSealing[];
}

export function createFileSecretStore(dataDir: string, options: FileSecretStoreOptions = { sealing: PLAIN_SEALING }): SecretStore {
  const filePath = join(dataDir, SECRETS_FILE_NAME);
  const openers = new Map([options.sealing, ...(options.alsoOpens ?? [])].map((sealing) => [sealing.kind, sealing]));
  const getMany = (names: readonly string[]): Map<string, string> => {
    const values = new Map<string, string>();
    const secrets = names.length === 0 ? undefined : readPrivateJsonFile(filePath, secretsFileSchema, 'leave-unreadable', 'secrets file')?.secrets;
    if (secrets === undefined) return values;
    for (const name of names) {
      const entry = Object.hasOwn(secrets, name) ? secrets[name] : undefined;
      const opener = entry ? openers.get(entry.sealing) : undefined;
      if (!entry || !opener) continue;
      try {
        values.set(name, opener.open(entry.value));
      } catch {
        // Sealed under another OS user or keyring: as if there were no value.
      }
    }
    return values;
  };
  return {
    get: (name: string): string | null => getMany([name]).get(name) ?? null,
    getMany,

    write(changes: Readonly<Record<string, string | null>>): void {
      const names = Object.keys(changes);
      if (names.length === 0) return;
      const current = readPrivateJsonFile(filePath, secretsFileSchema, 'move-unreadable-aside', 'secrets file') ?? { version: 1, secrets: {} };
      const secrets: SecretsFile['secrets'] = { ...current.secrets };
      for (const name of names) {
        const value = changes[name];
        if (value === null || value === undefined) delete secrets[name];
        else secrets[name] = { sealing: options.sealing.kind, value: options.sealing.seal(value) };
      }
      writePrivateJsonFile(dataDir, filePath, { version: 1, secrets } satisfies SecretsFile);
    },
  };
}
