/**
 * Attachments end to end: the turn engine with the real adapters against the fake brains over 127.0.0.1, which check
 * each wire's image and document shape. An image and a PDF go to every brain that takes them without a rule broken;
 * the next brain that cannot see them gets the labelled stand-in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainId } from '../../../src-shared/brains';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { writeAttachmentFile } from '../attachments/attachment-files';
import { pdfFile, pngFile } from '../attachments/test-files';
import { insertAttachment } from '../store/attachments';
import { updateConversation } from '../store/conversations';
import type { AppDatabase } from '../store/open';
import { engineOverFakeBrains } from './testing';

const fake = useFakeBrains();
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-attach-http-'));
  folders.push(folder);
  return folder;
}

/** A pending attachment, as addAttachment leaves it. */
function attach(db: AppDatabase, dataDir: string, id: string, name: string, bytes: Buffer, kind: 'image' | 'pdf'): string {
  const sha256 = writeAttachmentFile(dataDir, bytes);
  insertAttachment(db, {
    id, messageId: null, name, kind, sha256, size: bytes.length,
    mediaType: kind === 'image' ? 'image/png' : 'application/pdf',
    width: kind === 'image' ? 4 : null, height: kind === 'image' ? 3 : null, pages: kind === 'pdf' ? 1 : null,
    createdAt: '2026-12-01T00:00:00.000Z',
  });
  return id;
}

const IMAGE_STAND_IN = '[image photo.png (4x3) was shown to an earlier brain; this brain cannot see it]';

describe('an image and a PDF over HTTP', () => {
  it.each<[BrainId, string | null, readonly string[]]>([
    ['claude', null, ['image', 'pdf']],
    ['codex', null, ['image', 'pdf']],
    ['gemini', null, ['image', 'pdf']],
    ['kimi', null, ['image']],
    ['ollama', 'gemma3', ['image']],
  ])('%s takes them in its own shape, breaking no rule of its wire', async (brain, model, kinds) => {
    const dataDir = dataFolder();
    const { db, engine } = engineOverFakeBrains(fake, brain, { dataDir });
    if (model !== null) updateConversation(db, 'c1', { model });
    const ids = [attach(db, dataDir, 'a-image', 'photo.png', pngFile(4, 3), 'image')];
    if (kinds.includes('pdf')) ids.push(attach(db, dataDir, 'a-pdf', 'report.pdf', pdfFile(), 'pdf'));
    const reply = await engine.send('c1', 'What is this?', ids).done;
    expect(reply.status).toBe('complete');
    expect(fake.violations()).toEqual([]);
    const body = JSON.stringify(fake.requests().at(-1)!.body);
    expect(body).toContain(pngFile(4, 3).toString('base64'));
    if (kinds.includes('pdf')) expect(body).toContain(pdfFile().toString('base64'));
  });

  it('replays the image to the next brain that sees, and the stand-in to one that does not', async () => {
    const dataDir = dataFolder();
    const { db, engine } = engineOverFakeBrains(fake, 'gemini', { dataDir });
    await engine.send('c1', 'What is this?', [attach(db, dataDir, 'a-image', 'photo.png', pngFile(4, 3), 'image')]).done;
    updateConversation(db, 'c1', { brain: 'ollama', model: 'qwen3' });
    expect((await engine.send('c1', 'And its colour?').done).status).toBe('complete');
    const messages = (fake.requests().at(-1)!.body as { messages: Array<{ role: string; content: string; images?: string[] }> }).messages;
    expect(messages[1]).toEqual({ role: 'user', content: `${IMAGE_STAND_IN}\n\nWhat is this?` });
    expect(fake.violations()).toEqual([]);
  });
});
