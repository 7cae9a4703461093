/**
 * Each wire's inline images and files as the fake providers check them: the shape the app sends passes, and a
 * malformed one (a data URL where bare base64 belongs, a type the bytes do not have) gets the provider's own error.
 */
import { describe, expect, it } from 'vitest';
import { jpegFile, pdfFile, pngFile } from '../../src-main/core/attachments/test-files';
import { useFakeBrains } from './use-fake-brains';
import { errorMessage, postRaw, type RawReply } from './testing';

const fake = useFakeBrains();
const bearer = { authorization: 'Bearer k' };
const PNG = pngFile(4, 3).toString('base64');
const JPEG = jpegFile(4, 3).toString('base64');
const PDF = pdfFile().toString('base64');

describe('anthropic-messages', () => {
  const send = (content: unknown[]): Promise<RawReply> =>
    postRaw(fake.url, '/claude/v1/messages', { model: 'claude-test', max_tokens: 1024, stream: true, messages: [{ role: 'user', content }] }, { 'x-api-key': 'k' });
  const image = (mediaType: string, data: string): unknown => ({ type: 'image', source: { type: 'base64', media_type: mediaType, data } });

  it('takes an image and a PDF document in base64', async () => {
    const reply = await send([image('image/png', PNG), { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' }, { type: 'text', text: 'What is this?' }]);
    expect(reply.status).toBe(200);
  });

  it.each([
    ['an image labelled with a type its bytes do not have', [image('image/png', JPEG)], 'messages.0.content.0.image.source.base64: The image was specified using the image/png media type, but the image appears to be a image/jpeg image'],
    ['an image type Anthropic does not take', [image('image/svg+xml', PNG)], "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"],
    ['a data URL where bare base64 belongs', [image('image/png', `data:image/png;base64,${PNG}`)], 'messages.0.content.0.image.source.base64.data: Image does not match the provided media type image/png'],
  ])('refuses %s', async (_name, content, message) => {
    const reply = await send(content);
    expect(reply.status).toBe(400);
    expect(errorMessage(reply.text)).toBe(message);
  });
});

describe('openai-responses', () => {
  const send = (content: unknown[]): Promise<RawReply> =>
    postRaw(fake.url, '/codex/v1/responses', { model: 'gpt-test', stream: true, store: false, input: [{ role: 'user', content }] }, bearer);

  it('takes input_image and input_file with data URLs', async () => {
    const reply = await send([
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
      { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
      { type: 'input_text', text: 'What is this?' },
    ]);
    expect(reply.status).toBe(200);
  });

  it('refuses an image_url that is bare base64', async () => {
    const reply = await send([{ type: 'input_image', image_url: PNG, detail: 'auto' }]);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({
      error: {
        message: "Invalid 'input[0].content[0].image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value without the 'data:' prefix.",
        type: 'invalid_request_error',
        param: 'input[0].content[0].image_url',
        code: 'invalid_value',
      },
    });
  });

  it('refuses a data URL with no bytes', async () => {
    const reply = await send([{ type: 'input_image', image_url: 'data:image/png;base64,', detail: 'auto' }]);
    expect(errorMessage(reply.text)).toBe(
      "Invalid 'input[0].content[0].image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got empty base64-encoded bytes.",
    );
  });
});

describe('chat-completions (kimi)', () => {
  const send = (content: unknown[]): Promise<RawReply> =>
    postRaw(fake.url, '/kimi/v1/chat/completions', { model: 'kimi-k2.6', stream: true, thinking: { type: 'disabled' }, messages: [{ role: 'user', content }] }, bearer);

  it('takes an image_url part with a data URL', async () => {
    expect((await send([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }, { type: 'text', text: 'What is this?' }])).status).toBe(200);
  });

  it('refuses an image_url without the data: prefix', async () => {
    const reply = await send([{ type: 'image_url', image_url: { url: PNG } }]);
    expect(reply.status).toBe(400);
    expect(errorMessage(reply.text)).toBe(
      "Invalid image URL: 'messages[0].content[0].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value without the 'data:' prefix.",
    );
  });
});

describe('gemini-generate-content', () => {
  const send = (parts: unknown[]): Promise<RawReply> =>
    postRaw(fake.url, '/gemini/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts }] }, { 'x-goog-api-key': 'k' });

  it('takes inlineData parts', async () => {
    expect((await send([{ inlineData: { mimeType: 'image/png', data: PNG } }, { inlineData: { mimeType: 'application/pdf', data: PDF } }, { text: 'What is this?' }])).status).toBe(200);
  });

  it('refuses a data URL in inlineData', async () => {
    const dataUrl = `data:image/png;base64,${PNG}`;
    const reply = await send([{ inlineData: { mimeType: 'image/png', data: dataUrl } }]);
    expect(reply.status).toBe(400);
    expect(errorMessage(reply.text)).toBe(`Invalid value at 'contents[0].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed for "${dataUrl}"`);
  });
});

describe('ollama-chat', () => {
  const send = (images: unknown[]): Promise<RawReply> =>
    postRaw(fake.url, '/ollama/api/chat', { model: 'llama3.2-vision', think: false, messages: [{ role: 'user', content: 'What is this?', images }] }, {});

  it('takes bare base64 images', async () => {
    expect((await send([PNG])).status).toBe(200);
  });

  it('refuses a data URL with Go\'s base64 error', async () => {
    expect(await send([`data:image/png;base64,${PNG}`])).toEqual({
      status: 400,
      contentType: 'application/json',
      text: JSON.stringify({ error: 'illegal base64 data at input byte 4' }),
    });
  });
});
