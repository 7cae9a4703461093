import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { attachmentFilePath, sha256Of } from '../attachments/attachment-files';
import { declaredPngFile } from '../attachments/test-files';
import { attachmentTokenCeiling } from '../context/attachment-tokens';
import { estimateRowTokens } from '../context/row-estimate';
import { attachmentRowsOfMessages, attachmentsOfMessages } from '../store/attachments';
import { listConversations } from '../store/conversations';
import { listAllMessages, listLiveMessages } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';
import { exportConversation } from './export';
import { PDF, PNG, seedAttachedConversation, TEXT, withoutIds } from './export-testing';
import { importTranscript } from './import';

const AT = '2026-12-01T12:00:00.000Z';

const folders: string[] = [];
function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-attachments-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function exportedJson(db: AppDatabase, conversationId: string, dataDir: string, includeAttachments?: boolean): TranscriptV1 {
  const options = includeAttachments === undefined ? {} : { includeAttachments };
  return JSON.parse(exportConversation(db, conversationId, 'json', options, dataDir).content) as TranscriptV1;
}

describe('attachments in the JSON export', () => {
  it('names each attachment by name, media type, size and sha256, and embeds the bytes only when asked', () => {
    const db = openTestDatabase();
    const dataDir = dataFolder();
    const conversationId = seedAttachedConversation(db, dataDir);
    const referenced = exportedJson(db, conversationId, dataDir);
    expect(referenced.messages[0]!.attachments).toEqual([
      { name: 'photo.png', media_type: 'image/png', size: PNG.length, sha256: sha256Of(PNG) },
      { name: 'report.pdf', media_type: 'application/pdf', size: PDF.length, sha256: sha256Of(PDF) },
      { name: 'notes.md', media_type: 'text/markdown', size: TEXT.length, sha256: sha256Of(TEXT) },
    ]);
    expect(referenced.messages[1]).not.toHaveProperty('attachments');
    const embedded = exportedJson(db, conversationId, dataDir, true);
    expect(embedded.messages[0]!.attachments!.map((attachment) => attachment.data_base64)).toEqual([
      PNG.toString('base64'),
      PDF.toString('base64'),
      TEXT.toString('base64'),
    ]);
    const schema = JSON.parse(readFileSync(new URL('../../../src-shared/transcript-v1.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    expect([validate(referenced), validate(embedded), validate.errors]).toEqual([true, true, null]);
  });
});

describe('export (embedded), import into a fresh data folder, export', () => {
  it('gives the same JSON, ids aside, with the files and rows restored', () => {
    const source = openTestDatabase();
    const sourceDir = dataFolder();
    const conversationId = seedAttachedConversation(source, sourceDir);
    const exported = exportConversation(source, conversationId, 'json', { includeAttachments: true }, sourceDir).content;

    const target = openTestDatabase();
    const targetDir = dataFolder();
    const imported = importTranscript(target, exported, targetDir);
    const reExported = exportConversation(target, imported, 'json', { includeAttachments: true }, targetDir).content;
    expect(withoutIds(JSON.parse(reExported) as TranscriptV1)).toEqual(withoutIds(JSON.parse(exported) as TranscriptV1));

    for (const bytes of [PNG, PDF, TEXT]) expect(readFileSync(attachmentFilePath(targetDir, sha256Of(bytes)))).toEqual(bytes);
    const [question] = listAllMessages(target, imported);
    expect(attachmentsOfMessages(target, [question!.id]).get(question!.id)!.map(({ name, mediaType, kind, size, width, height }) => [name, mediaType, kind, size, width, height])).toEqual([
      ['photo.png', 'image/png', 'image', PNG.length, 1, 1],
      ['report.pdf', 'application/pdf', 'pdf', PDF.length, null, null],
      ['notes.md', 'text/markdown', 'text', TEXT.length, null, null],
    ]);
    // The window guard counts the files as admission does: the most any brain charges for each.
    const ceilings = attachmentRowsOfMessages(target, [question!.id]).get(question!.id)!.map((row) => attachmentTokenCeiling(row));
    expect(question!.tokenEstimate).toBe(estimateRowTokens('What are these?', []) + ceilings.reduce((sum, tokens) => sum + tokens, 0));
  });
});

describe('importing attachments', () => {
  function fileWith(attachment: Record<string, unknown>): string {
    return JSON.stringify({
      format: 'anybrain.transcript',
      version: 1,
      conversation: { id: 'c', title: 'Attached', created_at: AT },
      messages: [
        { id: 'u', turn_id: 't', role: 'user', kind: 'chat', text: 'Look.', created_at: AT, attachments: [attachment] },
        { id: 'a', turn_id: 't', role: 'assistant', kind: 'chat', text: 'Seen.', status: 'complete', brain: 'kimi', created_at: AT },
      ],
    });
  }
  const photo = { name: 'photo.png', media_type: 'image/png', size: PNG.length, sha256: sha256Of(PNG), data_base64: PNG.toString('base64') };

  /** The refusal, and that nothing was imported: no conversation, no file. */
  function refusal(attachment: Record<string, unknown>): string {
    const db = openTestDatabase();
    const dataDir = dataFolder();
    let message = '';
    try {
      importTranscript(db, fileWith(attachment), dataDir);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(listConversations(db)).toEqual([]);
    expect(readdirSync(dataDir)).toEqual([]);
    return message;
  }

  it('refuses bad base64, bytes that do not match the sha256 or the size, a wrong media type, and an oversized or corrupt image, importing nothing', () => {
    expect(refusal({ ...photo, data_base64: 'not base64!' })).toBe(
      'The file is not a valid Anybrain transcript: messages[0].attachments[0].data_base64: is not base64 (A-Z, a-z, 0-9, + and /, padded with =, no line breaks). Nothing was imported.',
    );
    expect(refusal({ ...photo, data_base64: photo.data_base64.replace(/=+$/, '') })).toBe(
      'The file is not a valid Anybrain transcript: messages[0].attachments[0].data_base64: is not base64 (its length or padding is wrong). Nothing was imported.',
    );
    expect(refusal({ ...photo, sha256: sha256Of(PDF) })).toBe(
      `The file is not a valid Anybrain transcript: messages[0].attachments[0].sha256: does not match the bytes in data_base64 (their SHA-256 is ${sha256Of(PNG)}): the file is damaged. Nothing was imported.`,
    );
    expect(refusal({ ...photo, size: 1 })).toBe(
      `The file is not a valid Anybrain transcript: messages[0].attachments[0].size: is 1, but data_base64 holds ${PNG.length} bytes: the file is damaged. Nothing was imported.`,
    );
    expect(refusal({ ...photo, media_type: 'image/jpeg' })).toBe(
      'The file is not a valid Anybrain transcript: messages[0].attachments[0].media_type: is image/jpeg, but the bytes are image/png. Nothing was imported.',
    );
    const huge = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    expect(refusal({ ...photo, size: huge.length, sha256: sha256Of(huge), data_base64: huge.toString('base64') })).toMatch(
      /^The file is not a valid Anybrain transcript: messages\[0\]\.attachments\[0\]: photo\.png is 10 MB, over the 10 MB limit for .+ Nothing was imported\.$/,
    );
    const cut = PNG.subarray(0, 12);
    expect(refusal({ ...photo, size: cut.length, sha256: sha256Of(cut), data_base64: cut.toString('base64') })).toMatch(
      /^The file is not a valid Anybrain transcript: messages\[0\]\.attachments\[0\]: photo\.png looks like PNG but its header or size cannot be read.+ Nothing was imported\.$/,
    );
    const bomb = declaredPngFile(20_000, 20_000);
    expect(refusal({ ...photo, size: bomb.length, sha256: sha256Of(bomb), data_base64: bomb.toString('base64') })).toBe(
      'The file is not a valid Anybrain transcript: messages[0].attachments[0]: photo.png is 20,000 × 20,000 pixels (400 megapixels); ' +
        'Anybrain takes images up to 50 megapixels. Scale it down and attach it again. Nothing was imported.',
    );
    expect(refusal({ ...photo, size: 0, sha256: sha256Of(Buffer.alloc(0)), data_base64: '' })).toMatch(/: photo\.png is empty \(0 bytes\)/);
  });

  it('refuses a message with more attachments than a message carries', () => {
    const db = openTestDatabase();
    const file = JSON.parse(fileWith(photo)) as { messages: Array<{ attachments: unknown[] }> };
    file.messages[0]!.attachments = Array.from({ length: 11 }, () => photo);
    expect(() => importTranscript(db, JSON.stringify(file), dataFolder())).toThrow(
      'The file is not a valid Anybrain transcript: messages[0].attachments: holds 11 attachments; a message carries at most 10. Nothing was imported.',
    );
    expect(listConversations(db)).toEqual([]);
  });

  it('imports a message whose attachment the file names without bytes, with a notice before it saying so', () => {
    const db = openTestDatabase();
    const dataDir = dataFolder();
    const { data_base64: _left, ...reference } = photo;
    const conversationId = importTranscript(db, fileWith(reference), dataDir);
    expect(listLiveMessages(db, conversationId).map((row) => [row.role, row.kind, row.text])).toEqual([
      ['system', 'notice', `The next message had an attachment, photo.png (image/png, ${PNG.length} bytes); the imported transcript did not include it.`],
      ['user', 'chat', 'Look.'],
      ['assistant', 'chat', 'Seen.'],
    ]);
    const rows = listAllMessages(db, conversationId);
    expect(attachmentsOfMessages(db, rows.map((row) => row.id)).size).toBe(0);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('takes away the files it wrote when the transaction fails', () => {
    const db = openTestDatabase();
    const dataDir = dataFolder();
    db.$client.exec("CREATE TRIGGER refuse_reply BEFORE INSERT ON messages WHEN NEW.role = 'assistant' BEGIN SELECT RAISE(ABORT, 'disk full'); END;");
    expect(() => importTranscript(db, fileWith(photo), dataDir)).toThrow('disk full');
    expect(listConversations(db)).toEqual([]);
    expect(readdirSync(join(dataDir, 'attachments'))).toEqual([]);
  });
});
