/**
 * A small JSON file in the data folder that only its owner may read (`secrets.json`, `keys.json`): read through a
 * schema, written whole through a temporary file and a rename.
 */
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import type { z } from 'zod';
import { writePrivateFileAtomically } from '../store/permissions';

/** What to do with a file that exists but does not parse: leave it (reads), or move it aside (before a write). */
export type UnreadableFile = 'leave-unreadable' | 'move-unreadable-aside';

/**
 * The parsed file, or null when there is none or it is unreadable. Before a write, an unreadable file is moved aside
 * (kept, not deleted) so new values can still be saved. `description` names the file in the warning ("secrets file").
 */
export function readPrivateJsonFile<Schema extends z.ZodType>(
  filePath: string,
  schema: Schema,
  unreadable: UnreadableFile,
  description: string,
): z.infer<Schema> | null {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    if (unreadable === 'leave-unreadable') return null;
    const asidePath = `${filePath}.unreadable-${Date.now()}`;
    renameSync(filePath, asidePath);
    // The path only: the file's content may be secret.
    console.warn(`Anybrain: ${filePath} was not a valid ${description}; it was moved to ${asidePath}.`);
    return null;
  }
}

/** The whole file through a temporary file and a rename: a crash leaves the old file or the new one, never half. */
export function writePrivateJsonFile(dataDir: string, filePath: string, contents: unknown): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writePrivateFileAtomically(filePath, `${JSON.stringify(contents, null, 2)}\n`);
}
