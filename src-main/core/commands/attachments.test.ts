import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type CommandInput, type CommandName, type CommandOutput } from '../../../src-shared/api';
import { ATTACHMENT_SIZE_LIMITS } from '../../../src-shared/attachments';
import { openCore, type OpenedCore } from '../app';
import { declaredPngFile, pdfFile, pngFile } from '../attachments/test-files';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const requests: ProviderCall[] = [];

async function* seeingBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  requests.push(call);
  yield { type: 'text-delta', text: 'I see it.' };
  yield { type: 'finish', reason: 'stop', rawReason: 'stop' };
}

function open(): OpenedCore & { dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-attachments-'));
  const core = openCore({ dataDir, env: { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' }, stream: seeingBrain });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  return Object.assign(core, { dataDir });
}

async function call<Name extends CommandName>(core: OpenedCore, name: Name, input: CommandInput<Name>): Promise<CommandOutput<Name>> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new ApiError(result.error.code, result.error.message);
  return result.value as CommandOutput<Name>;
}

async function refusal(core: OpenedCore, name: CommandName, input: unknown): Promise<{ code: string; message: string }> {
  const result = await core.dispatch(name, input);
  if (result.ok) throw new Error(`${name} was not refused`);
  return result.error;
}

function storedFiles(dataDir: string): string[] {
  const folder = join(dataDir, 'attachments');
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

function attachmentRows(core: OpenedCore): unknown[] {
  return core.db.$client.prepare('SELECT id, message_id, name, sha256 FROM attachments ORDER BY rowid').all();
}

const base64 = (bytes: Buffer): string => bytes.toString('base64');

describe('addAttachment', () => {
  it('stores the bytes once per content, owner-only, and a pending row with the sniffed facts', async () => {
    const core = open();
    const png = pngFile(1280, 720);
    const first = await call(core, 'addAttachment', { name: 'photo.png', dataBase64: base64(png) });
    expect(first).toEqual({
      id: first.id,
      name: 'photo.png',
      mediaType: 'image/png',
      kind: 'image',
      size: png.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      width: 1280,
      height: 720,
    });
    const again = await call(core, 'addAttachment', { name: 'same.png', dataBase64: base64(png) });
    expect(again.sha256).toBe(first.sha256);
    expect(storedFiles(core.dataDir)).toEqual([first.sha256]);
    if (process.platform !== 'win32') expect(statSync(join(core.dataDir, 'attachments', first.sha256)).mode & 0o777).toBe(0o600);
    expect(await call(core, 'readAttachment', { id: again.id })).toEqual({ mediaType: 'image/png', dataBase64: base64(png) });
  });

  it.each([
    ['an empty file', 'empty.png', Buffer.alloc(0), 'attachment-empty'],
    ['a name whose bytes are another kind', 'photo.png', Buffer.from('plain words, not a picture'), 'attachment-unsupported'],
    ['a file over the limit', 'huge.png', Buffer.concat([pngFile(2, 2), Buffer.alloc(ATTACHMENT_SIZE_LIMITS.image)]), 'attachment-too-large'],
    ['a corrupt image', 'cut.png', pngFile(64, 64).subarray(0, 40), 'attachment-corrupt'],
  ])('refuses %s with a clear message and stores nothing', async (_case, name, bytes, code) => {
    const core = open();
    const refused = await refusal(core, 'addAttachment', { name, dataBase64: base64(bytes) });
    expect(refused.code).toBe(code);
    expect(refused.message).toContain(name);
    expect(attachmentRows(core)).toEqual([]);
    expect(storedFiles(core.dataDir)).toEqual([]);
  });

  it('refuses a PNG that declares 20,000 × 20,000 pixels, with the limit and what to do, storing nothing', async () => {
    const core = open();
    expect(await refusal(core, 'addAttachment', { name: 'photo.png', dataBase64: base64(declaredPngFile(20_000, 20_000)) })).toEqual({
      code: 'attachment-too-large',
      message: 'photo.png is 20,000 × 20,000 pixels (400 megapixels); Anybrain takes images up to 50 megapixels. Scale it down and attach it again.',
    });
    expect(attachmentRows(core)).toEqual([]);
    expect(storedFiles(core.dataDir)).toEqual([]);
  });

  it('refuses data that is not base64', async () => {
    const core = open();
    expect(await refusal(core, 'addAttachment', { name: 'a.png', dataBase64: 'not base64!' })).toEqual({
      code: 'invalid-input',
      message: 'a.png did not arrive whole (its data is not base64). Attach it again.',
    });
    expect(storedFiles(core.dataDir)).toEqual([]);
  });
});

describe('removeAttachment', () => {
  it('drops a pending attachment, and its file once no other row holds the same bytes', async () => {
    const core = open();
    const png = base64(pngFile(4, 4));
    const first = await call(core, 'addAttachment', { name: 'a.png', dataBase64: png });
    const second = await call(core, 'addAttachment', { name: 'b.png', dataBase64: png });
    expect(await call(core, 'removeAttachment', { id: first.id })).toBeNull();
    expect(storedFiles(core.dataDir)).toEqual([first.sha256]);
    await call(core, 'removeAttachment', { id: second.id });
    expect(storedFiles(core.dataDir)).toEqual([]);
    expect(attachmentRows(core)).toEqual([]);
    expect(await refusal(core, 'removeAttachment', { id: second.id })).toMatchObject({ code: 'not-found' });
  });
});

describe('send with attachments', () => {
  it('links the pending attachments to the user message, which shows them', async () => {
    const core = open();
    const conversation = await call(core, 'createConversation', { brain: 'gemini' });
    const image = await call(core, 'addAttachment', { name: 'photo.png', dataBase64: base64(pngFile(8, 6)) });
    const pdf = await call(core, 'addAttachment', { name: 'report.pdf', dataBase64: base64(pdfFile()) });
    requests.length = 0;
    const sent = await call(core, 'send', { conversationId: conversation.id, text: '', attachmentIds: [image.id, pdf.id] });
    await core.engine.settled(conversation.id);
    // The request carries the files' bytes from the data folder, in Gemini's own shape.
    expect((requests[0]!.body as { contents: unknown[] }).contents[0]).toEqual({
      role: 'user',
      parts: [{ inlineData: { mimeType: 'image/png', data: base64(pngFile(8, 6)) } }, { inlineData: { mimeType: 'application/pdf', data: base64(pdfFile()) } }],
    });
    const page = await call(core, 'listMessages', { conversationId: conversation.id });
    const user = page.messages.find((message) => message.id === sent.userMessageId)!;
    expect(user.attachments).toEqual([image, pdf]);
    expect(page.messages.find((message) => message.role === 'assistant')!.attachments).toEqual([]);
    // A message of files alone is named after its first file.
    expect((await call(core, 'getConversation', { id: conversation.id })).title).toBe('photo.png');
    // Sent once: a second send of the same ids is refused.
    expect(await refusal(core, 'send', { conversationId: conversation.id, text: 'again', attachmentIds: [image.id] })).toMatchObject({ code: 'attachment-missing' });
    expect(await refusal(core, 'removeAttachment', { id: image.id })).toMatchObject({ code: 'attachment-sent' });
  });

  it('refuses a model that cannot take a kind before anything is stored', async () => {
    const core = open();
    const conversation = await call(core, 'createConversation', { brain: 'ollama', model: 'qwen3' });
    const image = await call(core, 'addAttachment', { name: 'photo.png', dataBase64: base64(pngFile(8, 6)) });
    expect(await refusal(core, 'send', { conversationId: conversation.id, text: 'What is this?', attachmentIds: [image.id] })).toEqual({
      code: 'attachment-not-supported',
      message: 'Ollama qwen3 cannot see images here; switch to Gemini or remove it.',
    });
    expect(core.db.$client.prepare('SELECT count(*) AS count FROM messages').get()).toEqual({ count: 0 });
    expect(attachmentRows(core)).toEqual([{ id: image.id, message_id: null, name: 'photo.png', sha256: image.sha256 }]);
  });

  it('refuses files too large for the brain to take inline, before anything is stored', async () => {
    const core = open();
    const conversation = await call(core, 'createConversation', { brain: 'claude' });
    // Anthropic takes an image of at most 5 MB in base64: this one is 10 MiB less a little.
    const large = await call(core, 'addAttachment', { name: 'large.png', dataBase64: base64(Buffer.concat([pngFile(2, 2).subarray(0, 33), Buffer.alloc(9 * 1024 * 1024), pngFile(2, 2).subarray(33)])) });
    expect(await refusal(core, 'send', { conversationId: conversation.id, text: 'Look', attachmentIds: [large.id] })).toEqual({
      code: 'attachment-too-large',
      message: 'large.png is too large for Claude, which takes images of at most 3.8 MB. Attach a smaller image.',
    });
    expect(core.db.$client.prepare('SELECT count(*) AS count FROM messages').get()).toEqual({ count: 0 });
    const thick = Buffer.from(`%PDF-1.7\n<< /Type /Pages /Kids [] /Count 150 >>\n%%EOF`);
    const pdf = await call(core, 'addAttachment', { name: 'thick.pdf', dataBase64: base64(thick) });
    expect(await refusal(core, 'send', { conversationId: conversation.id, text: 'Read', attachmentIds: [pdf.id] })).toEqual({
      code: 'attachment-too-large',
      message: 'Claude reads at most 100 PDF pages in one message, and these PDFs have 150. Attach fewer pages.',
    });
  });

  it('counts the files in the user row\'s token estimate, at the most any brain charges for them', async () => {
    const core = open();
    const conversation = await call(core, 'createConversation', { brain: 'gemini' });
    const pdf = await call(core, 'addAttachment', { name: 'report.pdf', dataBase64: base64(pdfFile()) });
    const sent = await call(core, 'send', { conversationId: conversation.id, text: 'Look', attachmentIds: [pdf.id] });
    await core.engine.settled(conversation.id);
    // The words ("Look": 1 token and 4 of framing), and one page at Anthropic's and OpenAI's 3,000 tokens.
    expect(core.db.$client.prepare('SELECT token_estimate FROM messages WHERE id = ?').get(sent.userMessageId)).toEqual({ token_estimate: 5 + 3_000 });
  });

  it('refuses an empty message with nothing attached', async () => {
    const core = open();
    const conversation = await call(core, 'createConversation', { brain: 'gemini' });
    expect(await refusal(core, 'send', { conversationId: conversation.id, text: '' })).toMatchObject({ code: 'invalid-input' });
  });

  it('keeps the attachments of an edited message on the new message beside it', async () => {
    const core = open();
    const conversation = await call(core, 'createConversation', { brain: 'gemini' });
    const image = await call(core, 'addAttachment', { name: 'photo.png', dataBase64: base64(pngFile(8, 6)) });
    const sent = await call(core, 'send', { conversationId: conversation.id, text: 'What is this?', attachmentIds: [image.id] });
    await core.engine.settled(conversation.id);
    const edited = await call(core, 'editMessage', { messageId: sent.userMessageId, text: 'What animal is this?' });
    await core.engine.settled(conversation.id);
    const page = await call(core, 'listMessages', { conversationId: conversation.id });
    const user = page.messages.find((message) => message.id === edited.userMessageId)!;
    expect(user.attachments).toEqual([{ ...image, id: expect.any(String) }]);
    expect(user.attachments[0]!.id).not.toBe(image.id);
  });
});

describe('deleteConversation', () => {
  it('removes the files no other row uses, and keeps a file another conversation shares', async () => {
    const core = open();
    const shared = base64(pngFile(8, 6));
    const own = base64(pdfFile('only here'));
    const first = await call(core, 'createConversation', { brain: 'gemini' });
    const second = await call(core, 'createConversation', { brain: 'gemini' });
    const sharedInFirst = await call(core, 'addAttachment', { name: 'photo.png', dataBase64: shared });
    const ownInFirst = await call(core, 'addAttachment', { name: 'report.pdf', dataBase64: own });
    await call(core, 'send', { conversationId: first.id, text: 'Look', attachmentIds: [sharedInFirst.id, ownInFirst.id] });
    await core.engine.settled(first.id);
    const sharedInSecond = await call(core, 'addAttachment', { name: 'same-photo.png', dataBase64: shared });
    await call(core, 'send', { conversationId: second.id, text: 'Look too', attachmentIds: [sharedInSecond.id] });
    await core.engine.settled(second.id);
    expect(storedFiles(core.dataDir)).toEqual([sharedInFirst.sha256, ownInFirst.sha256].sort());

    await call(core, 'deleteConversation', { id: first.id });
    expect(storedFiles(core.dataDir)).toEqual([sharedInFirst.sha256]);
    expect(attachmentRows(core)).toEqual([{ id: sharedInSecond.id, message_id: expect.any(String), name: 'same-photo.png', sha256: sharedInFirst.sha256 }]);

    await call(core, 'deleteConversation', { id: second.id });
    expect(storedFiles(core.dataDir)).toEqual([]);
  });
});
