/**
 * Built-in file tools: read a text file and list a folder, only inside the folders the user granted in Settings.
 * A path is first checked by its text (paths.ts), then by where it really leads on disk: the real path of the target
 * (every symlink followed) must lie inside the real path of a granted folder. The file is then opened by that real
 * path, with O_NOFOLLOW, so a symlink swapped in after the check is not followed.
 */
import { constants, promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import type { ToolDefinition, ToolResult } from './catalogue';
import { describeGrants, grantHolding, normaliseGrants, quotePath, resolveInsideGrants } from './paths';
import { formatCount } from '../../../src-shared/format-count';

export const READ_LIMIT_BYTES = 256 * 1024;
export const LIST_LIMIT = 500;

export type DiskResolution =
  | { readonly ok: true; readonly path: string; readonly realPath: string }
  | { readonly ok: false; readonly reason: string };

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

async function realPathOrNull(target: string): Promise<string | null> {
  try {
    return await fs.realpath(target);
  } catch {
    return null;
  }
}

/**
 * Resolves `requested` inside the granted folders, then confirms on disk that it does not lead outside them through
 * a symlink. A path that does not exist yet is judged by its nearest existing parent.
 */
export async function resolveOnDisk(requested: string, grants: readonly string[]): Promise<DiskResolution> {
  const lexical = resolveInsideGrants(requested, grants);
  if (!lexical.ok) return lexical;
  const granted = normaliseGrants(grants);
  const refuse = (why: string): DiskResolution => ({
    ok: false,
    reason: `Refused ${quotePath(requested)}: ${why} ${describeGrants(granted)}`,
  });

  const holding = grantHolding(lexical.path, granted);
  if (holding === null || (await realPathOrNull(holding)) === null) {
    return refuse(`the granted folder ${quotePath(holding ?? '')} does not exist or cannot be opened.`);
  }
  const realGrants = (await Promise.all(granted.map(realPathOrNull))).filter((grant): grant is string => grant !== null);

  // Walk up to the nearest part of the path that exists, keeping the names below it.
  let existing = lexical.path;
  const missing: string[] = [];
  let realExisting: string;
  for (;;) {
    try {
      realExisting = await fs.realpath(existing);
      break;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') return refuse('it leads through a loop of symlinks.');
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || existing === holding) {
        return refuse(`it cannot be checked (${code ?? 'unknown error'}).`);
      }
      missing.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
  const firstMissing = missing[0];
  if (firstMissing !== undefined) {
    // The name exists but cannot be resolved: a symlink whose target is missing. Where it leads cannot be checked,
    // and a later write through it could land anywhere.
    const present = await fs.lstat(path.join(realExisting, firstMissing)).then(
      () => true,
      () => false,
    );
    if (present) return refuse('it is a symlink whose target does not exist.');
  }
  const realPath = path.join(realExisting, ...missing);
  if (grantHolding(realPath, realGrants) === null) {
    return refuse('it leads through a symlink to a place outside every granted folder.');
  }
  return { ok: true, path: lexical.path, realPath };
}

function toolError(output: string): ToolResult {
  return { output, isError: true };
}

function describeFsError(error: unknown, shown: string): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return `Nothing found at ${shown}.`;
    case 'ENOTDIR':
      return `Nothing found at ${shown}: a part of the path is a file, not a folder.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for ${shown}.`;
    case 'ELOOP':
      return `Refused ${shown}: it is a symlink that changed after it was checked.`;
    default:
      return `Could not open ${shown} (${errorCode(error) ?? (error instanceof Error ? error.message : String(error))}).`;
  }
}

/** Reads the single `path` field every file tool takes, or says what is wrong with the input. */
function requestedPath(input: Record<string, unknown>): { ok: true; path: string } | { ok: false; reason: string } {
  const extra = Object.keys(input).find((key) => key !== 'path');
  if (extra !== undefined) return { ok: false, reason: `Unknown field "${extra}". Allowed: path.` };
  if (typeof input.path !== 'string') return { ok: false, reason: '"path" must be a string: a file or folder inside a granted folder.' };
  return { ok: true, path: input.path };
}

/** Length of `bytes` without a UTF-8 sequence cut short at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

async function readTextFile(shown: string, realPath: string): Promise<ToolResult> {
  // O_NONBLOCK: opening a named pipe must not wait for a writer. Neither flag exists on Windows.
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(realPath, flags);
  } catch (error) {
    if (errorCode(error) === 'EISDIR') return toolError(`${shown} is a folder; use list_directory to see what it holds.`);
    return toolError(describeFsError(error, shown));
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return toolError(`${shown} is a folder; use list_directory to see what it holds.`);
    if (!stats.isFile()) return toolError(`${shown} is not a regular file (a device, pipe or socket), so it was not read.`);
    const buffer = Buffer.alloc(READ_LIMIT_BYTES + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const cut = filled > READ_LIMIT_BYTES;
    const kept = buffer.subarray(0, cut ? READ_LIMIT_BYTES : filled);
    if (kept.includes(0)) {
      return toolError(`${shown} looks like a binary file (it contains NUL bytes), so it was not read. read_file reads UTF-8 text only.`);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(cut ? kept.subarray(0, completeUtf8Length(kept)) : kept);
    } catch {
      return toolError(`${shown} is not UTF-8 text, so it was not read. read_file reads UTF-8 text only.`);
    }
    if (!cut) return { output: filled === 0 ? `${shown} is empty.` : text, isError: false };
    const size = Math.max(stats.size, filled);
    return {
      output:
        `${text}\n\n[Cut: ${shown} is ${formatCount(size)} bytes; only the first ${formatCount(READ_LIMIT_BYTES)} ` +
        'bytes are shown.]',
      isError: false,
    };
  } catch (error) {
    return toolError(describeFsError(error, shown));
  } finally {
    await handle.close();
  }
}

async function listFolder(shown: string, realPath: string): Promise<ToolResult> {
  let entries: Dirent[];
  try {
    const stats = await fs.stat(realPath);
    if (!stats.isDirectory()) return toolError(`${shown} is a file, not a folder; use read_file to read it.`);
    entries = await fs.readdir(realPath, { withFileTypes: true });
  } catch (error) {
    return toolError(describeFsError(error, shown));
  }
  if (entries.length === 0) return { output: `${shown} is empty.`, isError: false };
  const names = entries
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const shownNames = names.slice(0, LIST_LIMIT);
  const lines = [`${shown}: ${formatCount(names.length)} ${names.length === 1 ? 'entry' : 'entries'}`, ...shownNames];
  if (names.length > LIST_LIMIT) lines.push(`… and ${formatCount(names.length - LIST_LIMIT)} more, not shown.`);
  return { output: lines.join('\n'), isError: false };
}

const PATH_SCHEMA = (description: string) => ({
  type: 'object',
  properties: { path: { type: 'string', description } },
  required: ['path'],
  additionalProperties: false,
});

export function createFileTools(grantedFolders: () => readonly string[]): ToolDefinition[] {
  async function run(
    input: Record<string, unknown>,
    signal: AbortSignal,
    work: (shown: string, realPath: string) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    if (signal.aborted) return toolError('Cancelled.');
    const requested = requestedPath(input);
    if (!requested.ok) return toolError(requested.reason);
    const resolved = await resolveOnDisk(requested.path, grantedFolders());
    if (!resolved.ok) return toolError(resolved.reason);
    return work(quotePath(resolved.path), resolved.realPath);
  }

  const readFile: ToolDefinition = {
    name: 'read_file',
    description:
      'Read a UTF-8 text file inside a folder the user granted in Settings. A relative path is resolved against the ' +
      `first granted folder. Files over ${READ_LIMIT_BYTES / 1024} KB are cut; binary files are refused.`,
    inputSchema: PATH_SCHEMA('The file: relative to the first granted folder, or absolute inside a granted folder.'),
    server: null,
    execute: (input, context) => run(input, context.signal, readTextFile),
  };

  const listDirectory: ToolDefinition = {
    name: 'list_directory',
    description:
      'List the entries of a folder inside a folder the user granted in Settings, sorted by name; folders end with ' +
      `"/". Use "." for the first granted folder. At most ${LIST_LIMIT} entries are shown.`,
    inputSchema: PATH_SCHEMA('The folder: "." or relative to the first granted folder, or absolute inside a granted folder.'),
    server: null,
    execute: (input, context) => run(input, context.signal, listFolder),
  };

  return [readFile, listDirectory];
}
