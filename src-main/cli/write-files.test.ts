import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from './write-files';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-write-files-'));
  folders.push(folder);
  return folder;
}

describe('writeFilesAtomically', () => {
  it('replaces the whole file and leaves no temporary file behind', () => {
    const folder = temporaryFolder();
    const target = join(folder, 'chat.json');
    writeFilesAtomically([{ path: target, content: 'first' }]);
    writeFilesAtomically([{ path: target, content: 'second, longer' }]);
    expect(readFileSync(target, 'utf8')).toBe('second, longer');
    expect(readdirSync(folder)).toEqual(['chat.json']);
  });

  it('writes a name of 255 bytes, which a temporary name made by adding a suffix to it could not have', () => {
    const folder = temporaryFolder();
    const name = `${'é'.repeat(125)}a.png`;
    expect(Buffer.byteLength(name)).toBe(255);
    writeFilesAtomically([{ path: join(folder, name), content: 'bytes' }]);
    expect(readdirSync(folder).map((written) => Buffer.byteLength(written))).toEqual([255]);
  });

  it('writes none of the files when one of them cannot be written, and removes the folders it made', () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'blocked'), 'a file where a folder would go');
    const files = [
      { path: join(folder, 'new', 'first.md'), content: 'first' },
      { path: join(folder, 'blocked', 'second.png'), content: 'second' },
      { path: join(folder, 'index.json'), content: '{}' },
    ];
    expect(() => writeFilesAtomically(files)).toThrow(`Could not write ${join(folder, 'blocked', 'second.png')}: a file or folder of that name is in the way. Nothing was written.`);
    expect(readdirSync(folder)).toEqual(['blocked']);
  });

  it('refuses a name longer than 255 bytes before writing anything', () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'kept'));
    const long = join(folder, `${'a'.repeat(256)}.md`);
    expect(() => writeFilesAtomically([{ path: join(folder, 'kept', 'a.png'), content: 'x' }, { path: long, content: 'y' }])).toThrow(
      `Could not write ${long}: a file name is too long for this disk. Nothing was written.`,
    );
    expect(readdirSync(join(folder, 'kept'))).toEqual([]);
  });

  it('puts back every file it replaced and leaves no temporary file when a rename into place fails', () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'first.md'), 'the earlier first');
    // A folder where the second file goes: its temporary file is written beside it, and the rename is refused.
    mkdirSync(join(folder, 'second.md'));
    writeFileSync(join(folder, 'second.md', 'inside'), 'kept');
    const files = [
      { path: join(folder, 'first.md'), content: 'the new first' },
      { path: join(folder, 'new.md'), content: 'a new file' },
      { path: join(folder, 'second.md'), content: 'the new second' },
      { path: join(folder, 'index.json'), content: '{}' },
    ];
    expect(() => writeFilesAtomically(files)).toThrow(`Could not write ${join(folder, 'second.md')}: a file or folder of that name is in the way. Nothing was written.`);
    expect(readdirSync(folder).sort()).toEqual(['first.md', 'second.md']);
    expect(readFileSync(join(folder, 'first.md'), 'utf8')).toBe('the earlier first');
    expect(readdirSync(join(folder, 'second.md'))).toEqual(['inside']);
  });

  it('replaces files it wrote before, keeping no earlier copy beside them', () => {
    const folder = temporaryFolder();
    const files = (version: string) => [
      { path: join(folder, 'a.md'), content: `a ${version}` },
      { path: join(folder, 'b.md'), content: `b ${version}` },
    ];
    writeFilesAtomically(files('one'));
    writeFilesAtomically(files('two'));
    expect(readdirSync(folder).sort()).toEqual(['a.md', 'b.md']);
    expect([readFileSync(join(folder, 'a.md'), 'utf8'), readFileSync(join(folder, 'b.md'), 'utf8')]).toEqual(['a two', 'b two']);
  });
});
