import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDefinition } from './catalogue';
import { createFileTools, LIST_LIMIT, READ_LIMIT_BYTES, resolveOnDisk } from './files';
import { NO_GRANTS_MESSAGE } from './paths';

const context = { signal: new AbortController().signal, now: () => new Date('2026-11-30T11:00:00.000Z') };

let root: string;
let granted: string;
let grantedFolders: string[];

function tools(folders: () => readonly string[] = () => grantedFolders) {
  const [readFile, listDirectory] = createFileTools(folders) as [ToolDefinition, ToolDefinition];
  return { readFile, listDirectory };
}

async function read(requested: unknown, folders?: () => readonly string[]) {
  return tools(folders).readFile.execute({ path: requested }, context);
}

async function list(requested: unknown, folders?: () => readonly string[]) {
  return tools(folders).listDirectory.execute({ path: requested }, context);
}

function refused(requested: string, why: string, grants = [granted]) {
  return { output: `Refused "${requested}": ${why} Granted folders: ${grants.join(', ')}.`, isError: true };
}

const OUTSIDE_LINK = 'it leads through a symlink to a place outside every granted folder.';

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'anybrain-files-')));
  granted = path.join(root, 'granted');
  grantedFolders = [granted];
  const inGrant = (name: string) => path.join(granted, name);

  mkdirSync(path.join(granted, 'sub', 'empty-folder'), { recursive: true });
  mkdirSync(path.join(granted, 'many'));
  mkdirSync(path.join(root, 'outside'));
  mkdirSync(path.join(root, 'granted-private'));
  writeFileSync(path.join(root, 'outside', 'secret.txt'), 'outside secret');
  writeFileSync(path.join(root, 'granted-private', 'secret.txt'), 'sibling secret');

  writeFileSync(inGrant('notes.txt'), 'hello\nworld\n');
  writeFileSync(inGrant('한글.md'), '안녕하세요 🎉\n');
  writeFileSync(inGrant('bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('with BOM')]));
  writeFileSync(inGrant('empty.txt'), '');
  writeFileSync(path.join(granted, 'sub', 'deep.txt'), 'deep text');
  writeFileSync(inGrant('big.txt'), 'a'.repeat(300 * 1024));
  // 87,382 three-byte characters: the 256 KB limit falls inside the last one.
  writeFileSync(inGrant('big-hangul.txt'), '가'.repeat(87_382));
  writeFileSync(inGrant('exact.txt'), 'b'.repeat(READ_LIMIT_BYTES));
  writeFileSync(inGrant('image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
  writeFileSync(inGrant('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  for (let index = 0; index < LIST_LIMIT + 100; index += 1) {
    writeFileSync(path.join(granted, 'many', `f${String(index).padStart(4, '0')}.txt`), '');
  }

  symlinkSync('notes.txt', inGrant('link-in.txt'));
  symlinkSync('sub', inGrant('link-sub'));
  symlinkSync('chain-in-2', inGrant('chain-in-1'));
  symlinkSync('notes.txt', inGrant('chain-in-2'));
  symlinkSync('../outside/secret.txt', inGrant('link-out.txt'));
  symlinkSync(path.join(root, 'outside'), inGrant('link-out-dir'));
  symlinkSync('../granted-private', inGrant('link-sibling'));
  symlinkSync('chain-out-2', inGrant('chain-out-1'));
  symlinkSync('link-out-dir/secret.txt', inGrant('chain-out-2'));
  symlinkSync('../outside/missing.txt', inGrant('dangling-out'));
  symlinkSync('missing-inside.txt', inGrant('dangling-in'));
  symlinkSync('loop-b', inGrant('loop-a'));
  symlinkSync('loop-a', inGrant('loop-b'));
  // A granted folder reached through a symlink: its real path is what counts.
  symlinkSync(granted, path.join(root, 'granted-alias'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('read_file', () => {
  it('reads text by relative and absolute path', async () => {
    expect(await read('notes.txt')).toEqual({ output: 'hello\nworld\n', isError: false });
    expect(await read(path.join(granted, 'notes.txt'))).toEqual({ output: 'hello\nworld\n', isError: false });
    expect(await read('./sub/deep.txt')).toEqual({ output: 'deep text', isError: false });
    expect(await read('한글.md')).toEqual({ output: '안녕하세요 🎉\n', isError: false });
    expect(await read('bom.txt')).toEqual({ output: 'with BOM', isError: false });
    expect(await read('empty.txt')).toEqual({ output: `"${granted}/empty.txt" is empty.`, isError: false });
  });

  it('cuts a file over 256 KB with a note, never inside a character', async () => {
    const big = await read('big.txt');
    expect(big).toEqual({
      output: `${'a'.repeat(READ_LIMIT_BYTES)}\n\n[Cut: "${granted}/big.txt" is 307,200 bytes; only the first 262,144 bytes are shown.]`,
      isError: false,
    });
    const hangul = await read('big-hangul.txt');
    expect(hangul.isError).toBe(false);
    expect(hangul.output).toBe(
      `${'가'.repeat(87_381)}\n\n[Cut: "${granted}/big-hangul.txt" is 262,146 bytes; only the first 262,144 bytes are shown.]`,
    );
    expect(await read('exact.txt')).toEqual({ output: 'b'.repeat(READ_LIMIT_BYTES), isError: false });
  });

  it('refuses binary and non-UTF-8 files', async () => {
    expect(await read('image.png')).toEqual({
      output: `"${granted}/image.png" looks like a binary file (it contains NUL bytes), so it was not read. read_file reads UTF-8 text only.`,
      isError: true,
    });
    expect(await read('latin1.txt')).toEqual({
      output: `"${granted}/latin1.txt" is not UTF-8 text, so it was not read. read_file reads UTF-8 text only.`,
      isError: true,
    });
  });

  it('explains folders, missing files and bad input', async () => {
    expect(await read('sub')).toEqual({ output: `"${granted}/sub" is a folder; use list_directory to see what it holds.`, isError: true });
    expect(await read('nope.txt')).toEqual({ output: `Nothing found at "${granted}/nope.txt".`, isError: true });
    expect(await read('new/deeper/file.txt')).toEqual({ output: `Nothing found at "${granted}/new/deeper/file.txt".`, isError: true });
    expect(await read('notes.txt/x')).toEqual({
      output: `Nothing found at "${granted}/notes.txt/x": a part of the path is a file, not a folder.`,
      isError: true,
    });
    expect(await read(42)).toEqual({ output: '"path" must be a string: a file or folder inside a granted folder.', isError: true });
    expect(await tools().readFile.execute({ path: 'notes.txt', encoding: 'latin1' }, context)).toEqual({
      output: 'Unknown field "encoding". Allowed: path.',
      isError: true,
    });
    const stopped = new AbortController();
    stopped.abort();
    expect(await tools().readFile.execute({ path: 'notes.txt' }, { ...context, signal: stopped.signal })).toEqual({
      output: 'Cancelled.',
      isError: true,
    });
  });

  it('follows symlinks that stay inside, alone or chained', async () => {
    expect(await read('link-in.txt')).toEqual({ output: 'hello\nworld\n', isError: false });
    expect(await read('chain-in-1')).toEqual({ output: 'hello\nworld\n', isError: false });
    expect(await read('link-sub/deep.txt')).toEqual({ output: 'deep text', isError: false });
  });

  it('refuses symlinks that lead outside, alone, through a folder or chained', async () => {
    expect(await read('link-out.txt')).toEqual(refused('link-out.txt', OUTSIDE_LINK));
    expect(await read('link-out-dir/secret.txt')).toEqual(refused('link-out-dir/secret.txt', OUTSIDE_LINK));
    expect(await read('link-sibling/secret.txt')).toEqual(refused('link-sibling/secret.txt', OUTSIDE_LINK));
    expect(await read('chain-out-1')).toEqual(refused('chain-out-1', OUTSIDE_LINK));
    expect(await read(path.join(granted, 'chain-out-2'))).toEqual(refused(path.join(granted, 'chain-out-2'), OUTSIDE_LINK));
    // Not existing yet, below a symlink that leads outside: judged by the nearest existing parent.
    expect(await read('link-out-dir/new/file.txt')).toEqual(refused('link-out-dir/new/file.txt', OUTSIDE_LINK));
  });

  it('refuses broken symlinks and symlink loops', async () => {
    expect(await read('dangling-out')).toEqual(refused('dangling-out', 'it is a symlink whose target does not exist.'));
    expect(await read('dangling-in')).toEqual(refused('dangling-in', 'it is a symlink whose target does not exist.'));
    expect(await read('dangling-out/x')).toEqual(refused('dangling-out/x', 'it is a symlink whose target does not exist.'));
    expect(await read('loop-a')).toEqual(refused('loop-a', 'it leads through a loop of symlinks.'));
  });

  it('refuses every escape by the text of the path', async () => {
    const secret = path.join(root, 'outside', 'secret.txt');
    expect(await read('../outside/secret.txt')).toEqual(refused('../outside/secret.txt', '".." segments are not allowed.'));
    expect(await read(secret)).toEqual(refused(secret, 'it is outside every granted folder.'));
    const sibling = path.join(root, 'granted-private', 'secret.txt');
    expect(await read(sibling)).toEqual(refused(sibling, 'it is outside every granted folder.'));
    expect(await read('%2e%2e/outside/secret.txt')).toEqual(
      refused('%2e%2e/outside/secret.txt', 'it contains percent-encoding ("%2e"). Paths are never decoded: write the characters themselves.'),
    );
    expect(await read('notes.txt\u0000.png')).toEqual(refused('notes.txt\\u0000.png', 'it contains a NUL byte.'));
    expect(await read('~/.ssh/id_ed25519')).toEqual(
      refused('~/.ssh/id_ed25519', '"~" is not expanded to a home folder. Give a path inside a granted folder.'),
    );
  });

  it('refuses everything without a grant, and checks the grants at each call', async () => {
    const grants: string[] = [];
    expect(await read('notes.txt', () => grants)).toEqual({ output: NO_GRANTS_MESSAGE, isError: true });
    expect(await list('.', () => grants)).toEqual({ output: NO_GRANTS_MESSAGE, isError: true });
    grants.push(granted);
    expect(await read('notes.txt', () => grants)).toEqual({ output: 'hello\nworld\n', isError: false });
  });

  it('reads through a granted folder that is itself a symlink', async () => {
    const alias = path.join(root, 'granted-alias');
    expect(await read('notes.txt', () => [alias])).toEqual({ output: 'hello\nworld\n', isError: false });
    expect(await read('link-out.txt', () => [alias])).toEqual(refused('link-out.txt', OUTSIDE_LINK, [alias]));
  });

  it('refuses a granted folder that does not exist', async () => {
    const gone = path.join(root, 'gone');
    expect(await read('x.txt', () => [gone])).toEqual(
      refused('x.txt', `the granted folder "${gone}" does not exist or cannot be opened.`, [gone]),
    );
  });

  it.runIf(process.platform !== 'win32')('refuses a named pipe without waiting for a writer', async () => {
    const fifo = path.join(granted, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo on this system
    }
    try {
      expect(await read('pipe')).toEqual({
        output: `"${fifo}" is not a regular file (a device, pipe or socket), so it was not read.`,
        isError: true,
      });
    } finally {
      rmSync(fifo);
    }
  });
});

describe('list_directory', () => {
  it('lists entries sorted by name, folders with "/", with a count', async () => {
    expect(await list('sub')).toEqual({ output: `"${granted}/sub": 2 entries\ndeep.txt\nempty-folder/`, isError: false });
    expect(await list('sub/empty-folder')).toEqual({ output: `"${granted}/sub/empty-folder" is empty.`, isError: false });
    const top = await list('.');
    expect(top.isError).toBe(false);
    expect(top.output.split('\n')).toEqual([
      `"${granted}": 24 entries`,
      'big-hangul.txt', 'big.txt', 'bom.txt', 'chain-in-1', 'chain-in-2', 'chain-out-1', 'chain-out-2', 'dangling-in',
      'dangling-out', 'empty.txt', 'exact.txt', 'image.png', 'latin1.txt', 'link-in.txt', 'link-out-dir', 'link-out.txt',
      'link-sibling', 'link-sub', 'loop-a', 'loop-b', 'many/', 'notes.txt', 'sub/', '한글.md',
    ]);
    expect(await list(granted)).toEqual(top);
  });

  it('shows at most 500 entries and says how many more there are', async () => {
    const result = await list('many');
    const lines = result.output.split('\n');
    expect(lines[0]).toBe(`"${granted}/many": 600 entries`);
    expect(lines.slice(1, -1)).toHaveLength(LIST_LIMIT);
    expect(lines[1]).toBe('f0000.txt');
    expect(lines[LIST_LIMIT]).toBe('f0499.txt');
    expect(lines.at(-1)).toBe('… and 100 more, not shown.');
  });

  it('lists through an inside symlink and refuses one that leads outside', async () => {
    expect(await list('link-sub')).toEqual({ output: `"${granted}/link-sub": 2 entries\ndeep.txt\nempty-folder/`, isError: false });
    expect(await list('link-out-dir')).toEqual(refused('link-out-dir', OUTSIDE_LINK));
    expect(await list('..')).toEqual(refused('..', '".." segments are not allowed.'));
    expect(await list(path.join(root, 'granted-private'))).toEqual(refused(path.join(root, 'granted-private'), 'it is outside every granted folder.'));
  });

  it('explains a file or a missing folder', async () => {
    expect(await list('notes.txt')).toEqual({ output: `"${granted}/notes.txt" is a file, not a folder; use read_file to read it.`, isError: true });
    expect(await list('nope')).toEqual({ output: `Nothing found at "${granted}/nope".`, isError: true });
  });

  it('declares exactly read_file and list_directory as built-ins with closed schemas', () => {
    const declared = createFileTools(() => []);
    expect(declared.map((tool) => [tool.name, tool.server])).toEqual([
      ['read_file', null],
      ['list_directory', null],
    ]);
    for (const tool of declared) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['path'], additionalProperties: false });
    }
  });
});

describe('resolveOnDisk', () => {
  it('gives the real path of an existing or not-yet-existing path inside', async () => {
    expect(await resolveOnDisk('link-sub/deep.txt', [granted])).toEqual({
      ok: true, path: `${granted}/link-sub/deep.txt`, realPath: `${granted}/sub/deep.txt`,
    });
    expect(await resolveOnDisk('new/deeper/file.txt', [granted])).toEqual({
      ok: true, path: `${granted}/new/deeper/file.txt`, realPath: `${granted}/new/deeper/file.txt`,
    });
    expect(await resolveOnDisk('link-sub/new.txt', [path.join(root, 'granted-alias')])).toEqual({
      ok: true, path: `${root}/granted-alias/link-sub/new.txt`, realPath: `${granted}/sub/new.txt`,
    });
  });

  it('accepts a symlink into another granted folder', async () => {
    const outside = path.join(root, 'outside');
    expect(await resolveOnDisk('link-out.txt', [granted, outside])).toEqual({
      ok: true, path: `${granted}/link-out.txt`, realPath: `${outside}/secret.txt`,
    });
  });
});
