/**
 * Images in tool answers on every wire: whole in the reply being written to a brain that takes them (Claude, Codex,
 * Gemini 3), in that wire's documented shape; a labelled stand-in everywhere else, and always in the history.
 */
import { describe, expect, it } from 'vitest';
import { BRAINS, type BrainId } from '../../../../src-shared/brains';
import type { LiveTurn, ReplayCall, ReplayRequest, ReplayTurn } from '../types';
import { buildWireRequest } from './index';
import { MAX_SHOWN_IMAGE_BASE64_CHARS } from './shared';

const PNG = 'iVBORw0KGgo=';
const TOOLS = [{ name: 'snapshot', description: 'A picture of the screen.', inputSchema: { type: 'object', properties: {} } }];

const call = (overrides: Partial<ReplayCall> = {}): ReplayCall => ({
  callId: 'call_01LIVE_0',
  name: 'snapshot',
  input: {},
  answer: 'The screen:',
  isError: false,
  server: null,
  images: [{ mimeType: 'image/png', byteLength: 8, data: PNG }],
  ...overrides,
});

const liveTurn = (brain: BrainId, calls: ReplayCall[]): LiveTurn => ({
  messageId: '01LIVE', brain, model: BRAINS[brain].defaultModel, rounds: [{ text: '', calls }],
});

function requestFor(brain: BrainId, calls: ReplayCall[] = [call()], overrides: Partial<ReplayRequest> = {}): ReplayRequest {
  return {
    brain,
    model: BRAINS[brain].defaultModel,
    reasoningLevel: 'off',
    system: 'SYSTEM',
    turns: [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'Look.', calls: [] }],
    live: liveTurn(brain, calls),
    tools: TOOLS,
    maxOutputTokens: 1000,
    contextWindow: 200_000,
    cacheKey: 'anybrain-c1',
    ...overrides,
  };
}

function lastItem(brain: BrainId, request: ReplayRequest = requestFor(brain)): unknown {
  const { body } = buildWireRequest(BRAINS[brain].wire, request);
  const items = (body.messages ?? body.input ?? body.contents) as unknown[];
  return items.at(-1);
}

const SHOWN_NOT = '[image/png, 8 bytes: not shown to this brain]';

describe('a live tool answer with an image', () => {
  it('anthropic-messages (claude): text and image blocks in the tool_result', () => {
    expect(lastItem('claude')).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_01LIVE_0',
          content: [
            { type: 'text', text: 'The screen:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });

  it('anthropic-messages (claude): an error keeps is_error, and an answer of images alone has no empty text block', () => {
    const request = requestFor('claude', [call({ answer: '', isError: true })]);
    expect(lastItem('claude', request)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_01LIVE_0',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
          is_error: true,
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });

  it('openai-responses (codex): input_text and input_image items as the function_call_output', () => {
    expect(lastItem('codex')).toEqual({
      type: 'function_call_output',
      call_id: 'call_01LIVE_0',
      output: [
        { type: 'input_text', text: 'The screen:' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });

  it('gemini-generate-content (Gemini 3): inlineData in functionResponse.parts', () => {
    expect(lastItem('gemini')).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'snapshot',
            response: { output: 'The screen:' },
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
          },
        },
      ],
    });
  });

  it('gemini-generate-content (before Gemini 3): a stand-in, since only Gemini 3 takes media in a function response', () => {
    const request = requestFor('gemini', [call()], { model: 'gemini-2.5-pro' });
    expect(lastItem('gemini', request)).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'snapshot', response: { output: `The screen:\n${SHOWN_NOT}` } } }],
    });
  });

  it('chat-completions (kimi), ollama-chat: a labelled stand-in', () => {
    expect(lastItem('kimi')).toEqual({ role: 'tool', tool_call_id: 'call_01LIVE_0', content: `The screen:\n${SHOWN_NOT}` });
    expect(lastItem('ollama')).toEqual({ role: 'tool', content: `The screen:\n${SHOWN_NOT}`, tool_name: 'snapshot' });
  });

  it('the same wires for brains with no documented image support (glm, grok): a labelled stand-in', () => {
    expect(lastItem('glm')).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_01LIVE_0', content: `The screen:\n${SHOWN_NOT}`, cache_control: { type: 'ephemeral' } }],
    });
    expect(lastItem('grok')).toEqual({ type: 'function_call_output', call_id: 'call_01LIVE_0', output: `The screen:\n${SHOWN_NOT}` });
  });

  it('an image type the wire does not take, or one over 5 MB of base64, stands in; the others are still shown', () => {
    const svg = { mimeType: 'image/svg+xml', byteLength: 120, data: 'PHN2Zz4=' };
    const base64 = 'A'.repeat(MAX_SHOWN_IMAGE_BASE64_CHARS + 4);
    const huge = { mimeType: 'image/png', byteLength: ((MAX_SHOWN_IMAGE_BASE64_CHARS + 4) / 4) * 3, data: base64 };
    const request = requestFor('claude', [call({ images: [svg, { mimeType: 'image/png', byteLength: 8, data: PNG }, huge] })]);
    expect(lastItem('claude', request)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_01LIVE_0',
          content: [
            { type: 'text', text: 'The screen:\n[image/svg+xml, 120 bytes: not shown to this brain]\n[image/png, 3,932,163 bytes: not shown to this brain]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });
});

describe('a tool answer with an image in the history', () => {
  const history = (brain: BrainId): ReplayRequest => {
    const stored = call({ images: [{ mimeType: 'image/png', byteLength: 12345 }] });
    const reply: ReplayTurn = { messageId: '01REPLY', role: 'assistant', kind: 'chat', text: 'A screen.', calls: [stored], brain, model: BRAINS[brain].defaultModel };
    return requestFor(brain, [], { live: undefined, turns: [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'Look.', calls: [] }, reply, { messageId: 'u2', role: 'user', kind: 'chat', text: 'And?', calls: [] }] });
  };

  it('replays a stand-in on every wire, even to a brain that takes images', () => {
    const standIn = 'The screen:\n[image/png, 12,345 bytes: not replayed]';
    for (const brain of ['claude', 'codex', 'gemini', 'kimi', 'ollama'] as const) {
      const { body } = buildWireRequest(BRAINS[brain].wire, history(brain));
      const text = JSON.stringify(body);
      expect({ brain, hasStandIn: text.includes(JSON.stringify(standIn)) }).toEqual({ brain, hasStandIn: true });
      expect(text).not.toContain('image_url');
      expect(text).not.toContain('inlineData');
      expect(text).not.toContain('"type":"image"');
    }
  });
});
