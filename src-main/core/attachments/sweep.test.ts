import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
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

/** Another process on the data folder: it holds its owner lock until it is killed. */
async function startLockHolder(dataDir: string): Promise<{ pid: number; stop: () => Promise<void> }> {
  const script = `import('${join(import.meta.dirname, '..', 'store', 'owner-lock.ts')}').then((lock) => { lock.holdOwnerLock(process.argv[1]); console.log('ready'); setInterval(() => undefined, 60000); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return { pid: child.pid!, stop: () => new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGKILL'); }) };
}

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

  it('removes at once, with no other Anybrain on the folder, files a killed import left and unfinished writes of a dead process', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-sweep-'));
    folders.push(dataDir);
    const young = writeAttachmentFile(dataDir, pngFile(1, 1));
    writeFileSync(join(dataDir, ATTACHMENTS_FOLDER, `${young}.999999.1.tmp`), 'half');
    writeFileSync(join(dataDir, 'mcp-secrets.json.999999.1.tmp'), 'half');
    const swept = sweepAttachments(openTestDatabase(), dataDir, new Date());
    expect(readdirSync(join(dataDir, ATTACHMENTS_FOLDER))).toEqual([]);
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(swept).toEqual({ removed: { files: 3, bytes: pngFile(1, 1).length + 8 }, kept: { files: 0, bytes: 0 } });
  });

  it('keeps young leftovers while another process has the folder open, and removes them at the first start after it ends', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-sweep-'));
    folders.push(dataDir);
    const holder = await startLockHolder(dataDir);
    const young = writeAttachmentFile(dataDir, pngFile(1, 1));
    writeFileSync(join(dataDir, ATTACHMENTS_FOLDER, `${young}.${holder.pid}.1.tmp`), 'half');
    const db = openTestDatabase();
    expect(sweepAttachments(db, dataDir, new Date()).kept).toEqual({ files: 2, bytes: pngFile(1, 1).length + 4 });
    expect(readdirSync(join(dataDir, ATTACHMENTS_FOLDER)).sort()).toEqual([young, `${young}.${holder.pid}.1.tmp`].sort());
    await holder.stop();
    expect(sweepAttachments(db, dataDir, new Date()).removed.files).toBe(2);
    expect(readdirSync(join(dataDir, ATTACHMENTS_FOLDER))).toEqual([]);
  });

  it('does nothing without an attachments folder', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-sweep-'));
    folders.push(dataDir);
    sweepAttachments(openTestDatabase(), dataDir, NOW);
    expect(existsSync(join(dataDir, ATTACHMENTS_FOLDER))).toBe(false);
  });
});
