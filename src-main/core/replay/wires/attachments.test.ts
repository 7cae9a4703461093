/**
 * Attachments on every wire: a user message with an image and a PDF (and a text file) in each wire's own shape where
 * the model takes them, a labelled text stand-in where it does not, earlier turns' attachments included.
 */
import { describe, expect, it } from 'vitest';
import { BRAINS, type BrainId } from '../../../../src-shared/brains';
import type { ReplayAttachment, ReplayRequest, ReplayTurn } from '../types';
import { buildWireRequest } from './index';
import { INLINE_LIMITS } from './shared';

const PNG = 'iVBORw0KGgo=';
const PDF = 'JVBERi0xLjQ=';

const IMAGE: ReplayAttachment = { name: 'photo.png', kind: 'image', mediaType: 'image/png', width: 1280, height: 720, data: PNG };
const REPORT: ReplayAttachment = { name: 'report.pdf', kind: 'pdf', mediaType: 'application/pdf', width: null, height: null, data: PDF };
const NOTES: ReplayAttachment = { name: 'notes.md', kind: 'text', mediaType: 'text/markdown', width: null, height: null, text: '# Plan\nShip it.' };

const IMAGE_STAND_IN = '[image photo.png (1280x720) was shown to an earlier brain; this brain cannot see it]';
const PDF_STAND_IN = '[PDF report.pdf was shown to an earlier brain; this brain cannot read it]';
const NOTES_BLOCK = '[text file notes.md]\n# Plan\nShip it.\n[end of text file notes.md]';

function userTurn(attachments: readonly ReplayAttachment[], text = 'What do these show?', messageId = 'u1'): ReplayTurn {
  return { messageId, role: 'user', kind: 'chat', text, calls: [], attachments };
}

function requestFor(brain: BrainId, turns: ReplayTurn[], model = BRAINS[brain].defaultModel): ReplayRequest {
  return { brain, model, reasoningLevel: 'off', system: 'SYSTEM', turns, tools: [], maxOutputTokens: 1000, contextWindow: 200_000, cacheKey: 'anybrain-c1' };
}

function build(brain: BrainId, turns: ReplayTurn[], model?: string, wire = BRAINS[brain].wire) {
  return buildWireRequest(wire, requestFor(brain, turns, model));
}

function items(brain: BrainId, turns: ReplayTurn[], model?: string, wire = BRAINS[brain].wire): unknown[] {
  const { body } = build(brain, turns, model, wire);
  return (body.messages ?? body.input ?? body.contents) as unknown[];
}

describe('a user message with an image and a PDF', () => {
  it('anthropic-messages (claude): image and document blocks with base64 sources, before the words', () => {
    expect(items('claude', [userTurn([IMAGE, REPORT, NOTES])])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
          { type: 'text', text: NOTES_BLOCK },
          { type: 'text', text: 'What do these show?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('openai-responses (codex): input_image and input_file with data URLs', () => {
    expect(items('codex', [userTurn([IMAGE, REPORT, NOTES])])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
          { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
          { type: 'input_text', text: NOTES_BLOCK },
          { type: 'input_text', text: 'What do these show?' },
        ],
      },
    ]);
  });

  it('chat-completions (kimi): an image_url part with a data URL; the PDF as its stand-in, since Kimi reads no PDFs inline', () => {
    const { warnings } = build('kimi', [userTurn([IMAGE, REPORT, NOTES])]);
    expect(items('kimi', [userTurn([IMAGE, REPORT, NOTES])])).toEqual([
      { role: 'system', content: 'SYSTEM' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'text', text: PDF_STAND_IN },
          { type: 'text', text: NOTES_BLOCK },
          { type: 'text', text: 'What do these show?' },
        ],
      },
    ]);
    expect(warnings).toEqual([{ messageId: 'u1', message: 'report.pdf replays as a text line: kimi-k2.6 cannot take PDFs.' }]);
  });

  it('chat-completions with a model that reads PDFs: the file part', () => {
    expect(items('codex', [userTurn([REPORT], '')], 'gpt-5.5', 'chat-completions')).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: [{ type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` } }] },
    ]);
  });

  it('gemini-generate-content (gemini): inlineData parts', () => {
    expect(items('gemini', [userTurn([IMAGE, REPORT, NOTES])])).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/png', data: PNG } },
          { inlineData: { mimeType: 'application/pdf', data: PDF } },
          { text: NOTES_BLOCK },
          { text: 'What do these show?' },
        ],
      },
    ]);
  });

  it('ollama-chat (a vision model): the message\'s images; the PDF as its stand-in', () => {
    expect(items('ollama', [userTurn([IMAGE, REPORT, NOTES])], 'gemma3:27b')).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: `${PDF_STAND_IN}\n\n${NOTES_BLOCK}\n\nWhat do these show?`, images: [PNG] },
    ]);
  });
});

describe('a model that cannot take images or PDFs', () => {
  it('ollama-chat (a text model) gets the labelled stand-ins, with a warning each', () => {
    const { body, warnings } = build('ollama', [userTurn([IMAGE, REPORT])], 'qwen3');
    expect(body.messages).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: `${IMAGE_STAND_IN}\n\n${PDF_STAND_IN}\n\nWhat do these show?` },
    ]);
    expect(warnings).toEqual([
      { messageId: 'u1', message: 'photo.png replays as a text line: qwen3 cannot take image/png images.' },
      { messageId: 'u1', message: 'report.pdf replays as a text line: qwen3 cannot take PDFs.' },
    ]);
  });

  it('anthropic-messages (glm, a text model): stand-ins as text blocks, never an image block', () => {
    expect(items('glm', [userTurn([IMAGE, REPORT], '')])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: IMAGE_STAND_IN },
          { type: 'text', text: PDF_STAND_IN, cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('an image type the model does not take is a stand-in too (Gemini takes no GIF)', () => {
    const gif: ReplayAttachment = { ...IMAGE, name: 'loop.gif', mediaType: 'image/gif' };
    expect(items('gemini', [userTurn([gif], 'And this?')])).toEqual([
      { role: 'user', parts: [{ text: '[image loop.gif (1280x720) was shown to an earlier brain; this brain cannot see it]' }, { text: 'And this?' }] },
    ]);
  });
});

describe('earlier turns', () => {
  const earlier: ReplayTurn[] = [
    userTurn([IMAGE], 'Look at this.', 'u1'),
    { messageId: 'a1', role: 'assistant', kind: 'chat', text: 'A cat on a mat.', calls: [], brain: 'gemini', model: 'gemini-3.1-pro-preview' },
    { messageId: 'u2', role: 'user', kind: 'chat', text: 'What colour is it?', calls: [] },
  ];

  it('replay their attachments to the next brain in its own shape', () => {
    expect(items('codex', earlier)).toEqual([
      { role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' }, { type: 'input_text', text: 'Look at this.' }] },
      { role: 'assistant', content: 'A cat on a mat.' },
      { role: 'user', content: 'What colour is it?' },
    ]);
  });

  it('and as the stand-in to a brain that cannot see them', () => {
    expect(items('ollama', earlier, 'qwen3')).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: `${IMAGE_STAND_IN}\n\nLook at this.` },
      { role: 'assistant', content: 'A cat on a mat.' },
      { role: 'user', content: 'What colour is it?' },
    ]);
  });

  it('send the newest attachments first while the request has room, the older ones as a labelled line', () => {
    const big = 'A'.repeat(INLINE_LIMITS['gemini-generate-content'].perRequest / 2 + 4);
    const older: ReplayAttachment = { ...REPORT, name: 'older.pdf', data: big };
    const newer: ReplayAttachment = { ...REPORT, name: 'newer.pdf', data: big };
    const { body, warnings } = build('gemini', [
      userTurn([older], 'First.', 'u1'),
      { messageId: 'a1', role: 'assistant', kind: 'chat', text: 'Read.', calls: [] },
      userTurn([newer], 'Second.', 'u2'),
    ]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: '[PDF older.pdf was shown earlier in this conversation; it is not sent again, for want of room in this request]' }, { text: 'First.' }] },
      { role: 'model', parts: [{ text: 'Read.' }] },
      { role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data: big } }, { text: 'Second.' }] },
    ]);
    expect(warnings).toEqual([{ messageId: 'u1', message: 'older.pdf replays as a text line: the request has no room for it beside newer attachments.' }]);
  });

  it('keep to Anthropic\'s 100 PDF pages a request, newest first', () => {
    const thick: ReplayAttachment = { ...REPORT, name: 'thick.pdf', pages: 80 };
    const thin: ReplayAttachment = { ...REPORT, name: 'thin.pdf', pages: 30 };
    const messages = items('claude', [
      userTurn([thick], 'First.', 'u1'),
      { messageId: 'a1', role: 'assistant', kind: 'chat', text: 'Read.', calls: [] },
      userTurn([thin], 'Second.', 'u2'),
    ]) as Array<{ content: Array<{ type: string; text?: string }> }>;
    expect(messages[0]!.content[0]).toEqual({ type: 'text', text: '[PDF thick.pdf was shown earlier in this conversation; it is not sent again, for want of room in this request]' });
    expect(messages[2]!.content[0]!.type).toBe('document');
  });

  it('a file missing from the data folder replays as a labelled line', () => {
    const { data: _gone, ...missing } = IMAGE;
    expect(items('claude', [userTurn([missing], 'Still there?')])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[image photo.png (1280x720) was attached here, but its file is missing from the data folder]' },
          { type: 'text', text: 'Still there?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });
});
