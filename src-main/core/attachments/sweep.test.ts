import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insertAttachment } from '../store/attachments';
import { openTestDatabase } from '../store/test-database';
import { ATTACHMENTS_FOLDER, writeAttachmentFile } from './attachment-files';
import { PENDING_ATTACHMENT_LIFETIME_MS, sweepAttachments } from './sweep';
import { pngFile } from './test-files';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Later than any file the test writes, by more than the hour a leftover file must have. */
const NOW = new Date(Date.now() + 2 * 60 * 60 * 1000);

describe('sweepAttachments', () => {
  it('removes attachments never sent after their lifetime, files without a row and unfinished writes, and keeps the rest', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-sweep-'));
    folders.push(dataDir);
    const db = openTestDatabase();
    const row = (id: string, sha256: string, createdAt: string) =>
      insertAttachment(db, { id, messageId: null, name: `${id}.png`, mediaType: 'image/png', kind: 'image', size: 1, sha256, width: 1, height: 1, createdAt });
    const old = writeAttachmentFile(dataDir, pngFile(1, 1));
    const recent = writeAttachmentFile(dataDir, pngFile(2, 2));
    const orphan = writeAttachmentFile(dataDir, pngFile(3, 3));
    row('old', old, new Date(NOW.getTime() - PENDING_ATTACHMENT_LIFETIME_MS - 1).toISOString());
    row('recent', recent, new Date(NOW.getTime() - 1000).toISOString());
    writeFileSync(join(dataDir, ATTACHMENTS_FOLDER, `${orphan}.123.456.tmp`), 'half');

    sweepAttachments(db, dataDir, NOW);

    expect(readdirSync(join(dataDir, ATTACHMENTS_FOLDER))).toEqual([recent]);
    expect(db.$client.prepare('SELECT id FROM attachments').pluck().all()).toEqual(['recent']);
  });

  it('leaves a file without a row alone while it is young: another process may be about to store its row', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-sweep-'));
    folders.push(dataDir);
    const young = writeAttachmentFile(dataDir, pngFile(1, 1));
    sweepAttachments(openTestDatabase(), dataDir, new Date());
    expect(readdirSync(join(dataDir, ATTACHMENTS_FOLDER))).toEqual([young]);
  });

  it('does nothing without an attachments folder', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-sweep-'));
    folders.push(dataDir);
    sweepAttachments(openTestDatabase(), dataDir, NOW);
    expect(existsSync(join(dataDir, ATTACHMENTS_FOLDER))).toBe(false);
  });
});
