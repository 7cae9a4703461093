/** `anybrain chat --attach FILE [--attach FILE]`: files go with the message; a refused file stops it, storing nothing. */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/api';
import { openCore, type OpenedCore } from '../core/app';
import { pdfFile, pngFile } from '../core/attachments/test-files';
import type { ProviderCall, StreamPart } from '../core/providers/stream-parts';
import { chatCommand } from './commands';
import { capture } from './captured-output';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setUp(): { core: OpenedCore; dataDir: string; files: string; requests: ProviderCall[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-attach-'));
  const files = mkdtempSync(join(tmpdir(), 'anybrain-cli-files-'));
  const requests: ProviderCall[] = [];
  async function* seeingBrain(call: ProviderCall): AsyncIterable<StreamPart> {
    requests.push(call);
    yield { type: 'text-delta', text: 'A grey square and a page.' };
  }
  const core = openCore({ dataDir, env: { GEMINI_API_KEY: 'k' }, stream: seeingBrain });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => rmSync(files, { recursive: true, force: true }), () => core.dispose());
  return { core, dataDir, files, requests };
}

const stored = (core: OpenedCore): unknown[] => core.db.$client.prepare('SELECT name, message_id IS NOT NULL AS sent FROM attachments ORDER BY rowid').all();
const storedFiles = (dataDir: string): string[] => (existsSync(join(dataDir, 'attachments')) ? readdirSync(join(dataDir, 'attachments')) : []);

describe('anybrain chat --attach', () => {
  it('sends the files with the message, in order, and without words when none are given', async () => {
    const { core, files, requests } = setUp();
    writeFileSync(join(files, 'square.png'), pngFile(4, 4));
    writeFileSync(join(files, 'page.pdf'), pdfFile());
    const output = capture();
    expect(await chatCommand(core, output, { brain: 'gemini', attach: [join(files, 'square.png'), join(files, 'page.pdf')] })).toBe(0);
    expect(output.out).toBe('A grey square and a page.\n');
    expect((requests[0]!.body as { contents: unknown[] }).contents[0]).toEqual({
      role: 'user',
      parts: [
        { inlineData: { mimeType: 'image/png', data: pngFile(4, 4).toString('base64') } },
        { inlineData: { mimeType: 'application/pdf', data: pdfFile().toString('base64') } },
      ],
    });
    expect(stored(core)).toEqual([{ name: 'square.png', sent: 1 }, { name: 'page.pdf', sent: 1 }]);
  });

  it('refuses the message when a file is refused, storing nothing and starting no conversation', async () => {
    const { core, dataDir, files } = setUp();
    writeFileSync(join(files, 'square.png'), pngFile(4, 4));
    writeFileSync(join(files, 'empty.png'), Buffer.alloc(0));
    const attempt = chatCommand(core, capture(), { brain: 'gemini', text: 'Look', attach: [join(files, 'square.png'), join(files, 'empty.png')] });
    await expect(attempt).rejects.toEqual(new ApiError('attachment-empty', 'empty.png is empty (0 bytes), so there is nothing to attach. Choose the file again, or another one.'));
    expect(stored(core)).toEqual([]);
    expect(storedFiles(dataDir)).toEqual([]);
    expect(core.db.$client.prepare('SELECT count(*) AS count FROM conversations').get()).toEqual({ count: 0 });
  });

  it('refuses a brain that cannot take the file, leaving no file waiting', async () => {
    const { core, dataDir, files } = setUp();
    writeFileSync(join(files, 'square.png'), pngFile(4, 4));
    const attempt = chatCommand(core, capture(), { brain: 'ollama', model: 'qwen3', text: 'Look', attach: [join(files, 'square.png')] });
    await expect(attempt).rejects.toEqual(new ApiError('attachment-not-supported', 'Ollama qwen3 cannot see images here; switch to Gemini or remove it.'));
    expect(stored(core)).toEqual([]);
    expect(storedFiles(dataDir)).toEqual([]);
  });

  it('names a file it cannot read', async () => {
    const { core, files } = setUp();
    await expect(chatCommand(core, capture(), { brain: 'gemini', attach: [join(files, 'gone.png')] })).rejects.toMatchObject({ code: 'not-found' });
  });
});
