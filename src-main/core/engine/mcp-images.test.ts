/**
 * An MCP tool that answers with an image, through a real turn: server-everything over stdio returns its tiny PNG, the
 * invocation stores the image's type and bytes, and the next request of the same reply shows the image to a brain
 * that takes images in tool results, in that wire's own shape, and a labelled stand-in to the others. Later turns
 * replay the stand-in only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrainId } from '../../../src-shared/brains';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { insertConversation } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { openTestDatabase } from '../store/test-database';
import { McpManager } from '../tools/mcp';
import { everythingServer } from '../tools/mcp/testing/servers';
import { TurnEngine } from './turn-engine';
import { clockOnlyToolbox } from './turn-toolbox';

const TEXT = "Here's the image you requested:\nThe image above is the MCP logo.";

let manager: McpManager;
/** server-everything's tiny PNG in base64, as the server sends it, and its decoded size. */
let png = '';
let pngBytes = 0;

beforeAll(async () => {
  manager = new McpManager({ hostOptions: { toolTimeoutMs: 30_000, restartBackoffMs: 50 } });
  await manager.setConfigs([everythingServer()]);
  // The image as the server sends it, asked for with the SDK's own client.
  const { command, args } = everythingServer();
  const client = new Client({ name: 'anybrain-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args: [...args] }));
  const result = await client.callTool({ name: 'get-tiny-image', arguments: {} });
  await client.close();
  const image = (result.content as Array<{ type: string; data?: string }>).find((block) => block.type === 'image');
  png = image?.data ?? '';
  pngBytes = Buffer.from(png, 'base64').length;
  expect(pngBytes).toBeGreaterThan(0);
}, 60_000);
afterAll(async () => {
  await manager.dispose();
});

/** A brain that calls get-tiny-image in its first request and answers in words after; each request body is kept. */
function imageCallingBrain() {
  const calls: ProviderCall[] = [];
  const stream = async function* (call: ProviderCall): AsyncIterable<StreamPart> {
    calls.push(call);
    if (calls.length === 1) {
      yield { type: 'tool-call', providerCallId: 'call-1', name: 'everything__get-tiny-image', input: {} };
      yield { type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' };
    } else {
      yield { type: 'text-delta', text: 'It is the MCP logo.' };
      yield { type: 'finish', reason: 'stop', rawReason: 'end_turn' };
    }
  };
  return { calls, stream };
}

/**
 * One turn in which `brain` calls the image tool, then two more turns; the bodies of the reply's live request, of the
 * next turn's (the reply is the newest, replayed as written) and of the turn after (the reply is older).
 */
async function turnsWith(brain: BrainId) {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'Images', brain, model: null, now: '2026-01-01T00:00:00.000Z' });
  const provider = imageCallingBrain();
  const engine = new TurnEngine({
    db,
    emit: () => undefined,
    stream: provider.stream,
    connectionFor: () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }),
    toolbox: { ...clockOnlyToolbox(), list: (signal) => manager.toolDefinitions(signal) },
  });
  const reply = await engine.send('c1', 'Show me the logo.').done;
  const invocations = listInvocationsByMessage(db, [reply.id]).get(reply.id) ?? [];
  await engine.send('c1', 'Thanks.').done;
  await engine.send('c1', 'Bye.').done;
  const bodies = provider.calls.map((call) => call.body as Record<string, unknown>);
  return { reply, invocations, live: bodies[1]!, next: bodies[2]!, later: bodies[3]! };
}

describe('an MCP image result', () => {
  it('is stored with its type and bytes beside the text, and Claude sees the image block in the live turn', async () => {
    const { reply, invocations, live, next, later } = await turnsWith('claude');
    expect(reply.status).toBe('complete');
    expect(invocations).toHaveLength(1);
    const [invocation] = invocations;
    expect(invocation).toMatchObject({ server: 'everything', tool: 'get-tiny-image', status: 'ok', output: TEXT });
    expect(invocation!.images).toHaveLength(1);
    // What is stored is what the server sent: a PNG, byte for byte.
    expect(invocation!.images).toEqual([{ mimeType: 'image/png', data: png }]);
    expect(Buffer.from(png, 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const messages = live.messages as Array<{ role: string; content: unknown }>;
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: expect.any(String),
          content: [
            { type: 'text', text: TEXT },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          ],
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
    // The next turn starts with the reply as it was written, bytes included; once older, the call replays with a
    // stand-in, never the bytes.
    expect(JSON.stringify(next)).toContain(png);
    expect(JSON.stringify(later)).not.toContain(png);
    const answered = (later.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>)
      .flatMap((message) => message.content)
      .find((block) => block.type === 'tool_result');
    expect(answered?.content).toBe(`${TEXT}\n[image/png, ${pngBytes.toLocaleString('en-US')} bytes: not replayed]`);
  }, 60_000);

  it('reaches Gemini 3 as inline data inside the functionResponse', async () => {
    const { live } = await turnsWith('gemini');
    const contents = live.contents as Array<{ role: string; parts: unknown[] }>;
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'everything__get-tiny-image',
            response: { output: TEXT },
            parts: [{ inlineData: { mimeType: 'image/png', data: png } }],
          },
        },
      ],
    });
  }, 60_000);

  it('reaches Kimi and Ollama as a labelled stand-in', async () => {
    const standIn = `${TEXT}\n[image/png, ${pngBytes.toLocaleString('en-US')} bytes: not shown to this brain]`;
    const kimi = await turnsWith('kimi');
    expect((kimi.live.messages as Array<Record<string, unknown>>).at(-1)).toEqual({ role: 'tool', tool_call_id: 'call-1', content: standIn });
    const ollama = await turnsWith('ollama');
    expect((ollama.live.messages as Array<Record<string, unknown>>).at(-1)).toEqual({ role: 'tool', content: standIn, tool_name: 'everything__get-tiny-image' });
    for (const body of [kimi.live, kimi.next, kimi.later, ollama.live, ollama.next, ollama.later]) expect(JSON.stringify(body)).not.toContain(png);
  }, 60_000);
});
