import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '../../../src-shared/api';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { closeDatabase, type AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';
import { exportConversation } from './export';
import { writeExportArchive } from './export-archive';
import { PDF, PNG, seedAttachedConversation, seedConversation, seedManyConversations, TEXT } from './export-testing';

const databases: AppDatabase[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) closeDatabase(db);
});

function database(): AppDatabase {
  const db = openTestDatabase();
  databases.push(db);
  return db;
}

function unzipText(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, content]) => [name, strFromU8(content)]));
}

describe('the archive of every conversation', () => {
  it.each(EXPORT_FORMATS)('holds, in %s, exactly what exporting each conversation alone gives, and an index', (format) => {
    const db = database();
    seedConversation(db, { id: '01JEXPORT00000000000000001', title: 'Older', at: '2026-01-01T10:00:00.000Z', turns: 1 });
    seedConversation(db, { id: '01JEXPORT00000000000000002', title: 'Newer', at: '2026-01-02T10:00:00.000Z', turns: 3 });
    const archive = writeExportArchive(db, { format })!;
    expect(archive.conversations).toBe(2);
    expect(archive.messages).toBe(8);
    const files = unzipText(archive.bytes);
    const extension = { json: 'json', md: 'md', html: 'html' }[format];
    expect(Object.keys(files)).toEqual([`Newer-00000002.${extension}`, `Older-00000001.${extension}`, 'index.json']);
    expect(files[`Newer-00000002.${extension}`]).toBe(exportConversation(db, '01JEXPORT00000000000000002', format).content);
    expect(files[`Older-00000001.${extension}`]).toBe(exportConversation(db, '01JEXPORT00000000000000001', format).content);
    expect(JSON.parse(files['index.json']!)).toEqual({
      format: 'anybrain.export-index',
      version: 1,
      export_format: format,
      conversations: [
        {
          id: '01JEXPORT00000000000000002',
          title: 'Newer',
          file: `Newer-00000002.${extension}`,
          messages: 6,
          created_at: '2026-01-02T10:00:00.000Z',
          updated_at: '2026-01-02T10:00:00.000Z',
        },
        {
          id: '01JEXPORT00000000000000001',
          title: 'Older',
          file: `Older-00000001.${extension}`,
          messages: 2,
          created_at: '2026-01-01T10:00:00.000Z',
          updated_at: '2026-01-01T10:00:00.000Z',
        },
      ],
    });
  });

  it('of no conversations is an index listing none', () => {
    const progress: Array<[number, number]> = [];
    const archive = writeExportArchive(database(), { format: 'md' }, (done, total) => progress.push([done, total]))!;
    expect(Object.keys(unzipText(archive.bytes))).toEqual(['index.json']);
    expect(progress).toEqual([[0, 0]]);
  });

  it('reports progress at the start, at each whole percent, and at the end', () => {
    const db = database();
    seedManyConversations(db, 250, 1);
    const progress: number[] = [];
    writeExportArchive(db, { format: 'json' }, (done, total) => {
      expect(total).toBe(250);
      progress.push(done);
    });
    // 250 conversations: a percent is two and a half of them, so whole percents fall on the first count reaching each.
    const expected = [0];
    for (let percent = 1; percent <= 100; percent += 1) expected.push(Math.ceil((percent * 250) / 100));
    expect(progress).toEqual(expected);
  });

  it('stops between two conversations when its signal aborts, and gives no archive', () => {
    const db = database();
    seedManyConversations(db, 10, 1);
    const controller = new AbortController();
    const progress: number[] = [];
    const archive = writeExportArchive(
      db,
      { format: 'md' },
      (done) => {
        progress.push(done);
        if (done === 3) controller.abort();
      },
      controller.signal,
    );
    expect(archive).toBeNull();
    expect(progress).toEqual([0, 1, 2, 3]);
  });
});

describe('attachments in the archive of every conversation', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("writes Markdown's attachments into the zip beside each conversation's file, where its links point", () => {
    const db = database();
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-archive-'));
    folders.push(dataDir);
    const conversationId = seedAttachedConversation(db, dataDir);
    const files = unzipSync(writeExportArchive(db, { format: 'md' }, () => {}, undefined, dataDir)!.bytes);
    expect(Object.keys(files)).toEqual([
      'Three-files-c1.md',
      'Three-files-c1.attachments/photo.png',
      'Three-files-c1.attachments/report.pdf',
      'Three-files-c1.attachments/notes.md',
      'index.json',
    ]);
    expect(Buffer.from(files['Three-files-c1.attachments/photo.png']!)).toEqual(PNG);
    expect(Buffer.from(files['Three-files-c1.attachments/report.pdf']!)).toEqual(PDF);
    expect(Buffer.from(files['Three-files-c1.attachments/notes.md']!)).toEqual(TEXT);
    const markdown = strFromU8(files['Three-files-c1.md']!);
    expect(markdown).toContain('![photo.png](Three-files-c1.attachments/photo.png)');
    expect(markdown).toContain(`Attached: [report.pdf](Three-files-c1.attachments/report.pdf) (application/pdf, ${PDF.length} bytes)`);
    expect(markdown).toBe(exportConversation(db, conversationId, 'md', {}, dataDir, 'Three-files-c1.md').content);
  });

  it('embeds the bytes in JSON when asked, and leaves them out by default', () => {
    const db = database();
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-archive-'));
    folders.push(dataDir);
    seedAttachedConversation(db, dataDir);
    const transcriptIn = (includeAttachments: boolean | undefined) => {
      const request = { format: 'json' as const, ...(includeAttachments === undefined ? {} : { includeAttachments }) };
      const files = unzipText(writeExportArchive(db, request, () => {}, undefined, dataDir)!.bytes);
      return JSON.parse(files['Three-files-c1.json']!) as TranscriptV1;
    };
    expect(transcriptIn(undefined).messages[0]!.attachments!.map((attachment) => attachment.data_base64)).toEqual([undefined, undefined, undefined]);
    expect(transcriptIn(true).messages[0]!.attachments!.map((attachment) => attachment.data_base64)).toEqual([
      PNG.toString('base64'),
      PDF.toString('base64'),
      TEXT.toString('base64'),
    ]);
  });
});
