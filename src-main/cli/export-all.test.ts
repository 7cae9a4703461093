import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src-shared/api';
import { openCore, type OpenedCore } from '../core/app';
import { exportConversation } from '../core/transcripts/export';
import { seedConversation, seedManyConversations } from '../core/transcripts/export-testing';
import { call, exportCommand, readWholeExport } from './commands';
import { capture } from './captured-output';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-export-all-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** The core in-process: from the sources no worker is built (the worker's own tests run the built one). */
function open(): OpenedCore {
  const core = openCore({ dataDir: temporaryFolder(), env: {}, exportArchives: 'in-process' });
  cleanups.push(() => core.dispose());
  return core;
}

const TRICKY_TITLES = [
  '../etc',
  'CON',
  '🎉 Launch party 🎉',
  '한국어 회의 메모',
  'A'.repeat(200),
  'Duplicate',
  'Duplicate',
  '',
];

function seedTricky(core: OpenedCore): string[] {
  return TRICKY_TITLES.map((title, index) => {
    const id = `01JEXPORT0000000000000000${index + 1}`.slice(-26);
    seedConversation(core.db, { id, title, at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString() });
    return id;
  });
}

describe('anybrain export --all', () => {
  it('writes one file per conversation with safe, unique names, and an index, with progress on stderr', async () => {
    const core = open();
    const ids = seedTricky(core);
    const folder = join(temporaryFolder(), 'new', 'folder');
    const output = capture();
    expect(await exportCommand(core, output, { all: true, format: 'md', out: folder })).toBe(0);

    expect(readdirSync(folder).sort()).toEqual(
      [
        'conversation-00000008.md',
        'Duplicate-00000007.md',
        'Duplicate-00000006.md',
        `${'A'.repeat(60)}-00000005.md`,
        '한국어-회의-메모-00000004.md',
        'Launch-party-00000003.md',
        'CON-00000002.md',
        'etc-00000001.md',
        'index.json',
      ].sort(),
    );
    const index = JSON.parse(readFileSync(join(folder, 'index.json'), 'utf8')) as { conversations: Array<{ id: string; title: string; file: string; messages: number }> };
    expect(index.conversations.map(({ id, title, file, messages }) => ({ id, title, file, messages }))).toEqual([
      { id: ids[7], title: '', file: 'conversation-00000008.md', messages: 2 },
      { id: ids[6], title: 'Duplicate', file: 'Duplicate-00000007.md', messages: 2 },
      { id: ids[5], title: 'Duplicate', file: 'Duplicate-00000006.md', messages: 2 },
      { id: ids[4], title: 'A'.repeat(200), file: `${'A'.repeat(60)}-00000005.md`, messages: 2 },
      { id: ids[3], title: '한국어 회의 메모', file: '한국어-회의-메모-00000004.md', messages: 2 },
      { id: ids[2], title: '🎉 Launch party 🎉', file: 'Launch-party-00000003.md', messages: 2 },
      { id: ids[1], title: 'CON', file: 'CON-00000002.md', messages: 2 },
      { id: ids[0], title: '../etc', file: 'etc-00000001.md', messages: 2 },
    ]);
    for (const entry of index.conversations) {
      expect(readFileSync(join(folder, entry.file), 'utf8')).toBe(exportConversation(core.db, entry.id, 'md').content);
    }
    expect(output.out).toBe('');
    expect(output.err).toBe(
      [1, 2, 3, 4, 5, 6, 7, 8].map((done) => `Exported ${done} of 8 conversations\n`).join('') +
        `Wrote 8 conversations (16 messages) and index.json to ${folder}\n`,
    );
  });

  it('needs a folder, and takes either one conversation or all', async () => {
    const core = open();
    await expect(exportCommand(core, capture(), { all: true, format: 'json' })).rejects.toThrow(
      '--all writes one file per conversation: name the folder with --out DIR.',
    );
    await expect(exportCommand(core, capture(), { all: true, conversation: 'x', format: 'json', out: temporaryFolder() })).rejects.toThrow(
      'Give either --conversation ID or --all, not both.',
    );
    await expect(exportCommand(core, capture(), { format: 'json' })).rejects.toThrow(
      'Name the conversation with --conversation ID, or export every one with --all --out DIR.',
    );
  });

  it('writes nothing when Ctrl-C cancels it', async () => {
    const core = open();
    seedManyConversations(core.db, 20, 1);
    const folder = join(temporaryFolder(), 'out');
    const interrupt = new AbortController();
    const output = capture();
    core.onEvent((event) => {
      if (event.type === 'export-progress' && event.done === 5) interrupt.abort();
    });
    expect(await exportCommand(core, output, { all: true, format: 'json', out: folder, interrupt: interrupt.signal })).toBe(130);
    expect(existsSync(folder)).toBe(false);
    expect(output.err.endsWith('Export stopped; nothing was written.\n')).toBe(true);
  });
});

describe('the exportAllConversations command', () => {
  it('answers with a zip read in pieces, equal to the per-conversation exports, with progress events', async () => {
    const core = open();
    seedTricky(core);
    const events: ApiEvent[] = [];
    core.onEvent((event) => events.push(event));
    const result = await call(core, 'exportAllConversations', { exportId: 'export-1', format: 'html' });
    if (result.outcome !== 'done') throw new Error('the export was cancelled');
    expect(result).toMatchObject({ exportId: 'export-1', mimeType: 'application/zip', conversations: 8, messages: 16 });
    expect(result.filename).toMatch(/^anybrain-conversations-html-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(events.filter((event) => event.type === 'export-progress')).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8].map((done) => ({ type: 'export-progress', exportId: 'export-1', done, total: 8 })),
    );
    const bytes = await readWholeExport(core, 'export-1');
    expect(bytes.length).toBe(result.bytes);
    const files = unzipSync(bytes);
    const index = JSON.parse(strFromU8(files['index.json']!)) as { conversations: Array<{ id: string; file: string }> };
    expect(Object.keys(files)).toEqual([...index.conversations.map((entry) => entry.file), 'index.json']);
    for (const entry of index.conversations) {
      expect(strFromU8(files[entry.file]!)).toBe(exportConversation(core.db, entry.id, 'html').content);
    }
    // Read to the end, the zip is let go.
    expect(await core.dispatch('readExport', { exportId: 'export-1', offset: 0 })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('refuses an export id that is not a plain name', async () => {
    const core = open();
    expect(await core.dispatch('exportAllConversations', { exportId: '../x', format: 'md' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
  });
});
