import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptSchema } from '../../../../src-shared/transcript';
import { chatGptSiblings, timeGrowth } from '../testing/hostile-imports';
import { chatGptExportToTranscripts, looksLikeChatGptExport } from './chatgpt';
import { ForeignImportError } from './types';

const FIXTURE = join(__dirname, '../../../../e2e/fixtures/chatgpt-export/conversations.json');
const sample = (): unknown[] => JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown[];

const SIEVE =
  'def primes_below(limit):\n    sieve = [True] * limit\n    sieve[0:2] = [False, False]\n    for n in range(2, int(limit ** 0.5) + 1):\n' +
  '        if sieve[n]:\n            sieve[n * n::n] = [False] * len(sieve[n * n::n])\n    return sum(sieve)\n\nprimes_below(1000)';

/** A node of a hand-made mapping: one message, its parent. */
function node(id: string, parent: string | null, message: Record<string, unknown> | null) {
  return { id, parent, children: [], message: message === null ? null : { id, ...message } };
}

function conversation(mapping: Record<string, unknown>, currentNode: string, title = 'Made by hand') {
  return { title, create_time: 1_700_000_000, mapping, current_node: currentNode };
}

const text = (...parts: string[]) => ({ content_type: 'text', parts });

describe('chatGptExportToTranscripts', () => {
  it('keeps every branch with current_node as the leaf, reasoning as reasoning, the code run as a call and the image as a note', () => {
    const { transcripts, skipped } = chatGptExportToTranscripts(sample());
    expect(transcripts[0]).toEqual({
      format: 'anybrain.transcript',
      version: 1,
      conversation: { id: '6751a0c0-0000-8000-a000-000000000001', title: 'Counting primes', created_at: '2024-12-05T12:00:00.000Z', current_leaf_id: 'a3-chart' },
      messages: [
        // The first question, before it was edited: an alternative the edited one sits beside.
        { id: 'u1-first', turn_id: 'turn-1', parent_id: null, role: 'user', kind: 'chat', text: 'How many primes are below 100?', created_at: '2024-12-05T12:00:01.000Z' },
        {
          id: 'a1-first', turn_id: 'turn-1', parent_id: 'u1-first', role: 'assistant', kind: 'chat', text: 'There are 25 primes below 100.',
          created_at: '2024-12-05T12:00:03.000Z', status: 'complete', brain: 'codex', model_requested: null, model_responded: 'gpt-4o',
        },
        {
          id: 'u1-edited',
          turn_id: 'turn-2',
          parent_id: null,
          role: 'user',
          kind: 'chat',
          text: 'How many primes are below 1000? Please compute it.',
          created_at: '2024-12-05T12:01:00.000Z',
        },
        {
          id: 't1-thoughts',
          turn_id: 'turn-2',
          parent_id: 'u1-edited',
          role: 'assistant',
          kind: 'chat',
          text: 'There are **168** primes below 1000. The sieve printed `168`, and "\\"quoted\\"" text stays as written.',
          created_at: '2024-12-05T12:01:01.000Z',
          status: 'complete',
          brain: 'codex',
          model_requested: null,
          model_responded: 'o3',
          reasoning: {
            brain: 'codex',
            model: 'o3',
            text: "Counting primes\n\nI'll run a sieve of Eratosthenes up to 1000 rather than recall the number.\n\nThought for 4s",
            opaque: null,
          },
          tool_invocations: [
            { id: 't1-thoughts-call-0', kind: 'tool', server: 'chatgpt', tool: 'python', provider_call_id: null, input: { code: SIEVE }, output: '168', status: 'ok' },
          ],
        },
        {
          id: 'u2-image',
          turn_id: 'turn-3',
          parent_id: 't1-thoughts',
          role: 'user',
          kind: 'chat',
          text: '[image: primes-chart.png, not included in the export]\n\nWhat does this chart show?',
          created_at: '2024-12-05T12:02:00.000Z',
        },
        {
          id: 'a3-chart',
          turn_id: 'turn-3',
          parent_id: 'u2-image',
          role: 'assistant',
          kind: 'chat',
          text: 'It plots how many primes lie below each bound: the curve flattens as the bound grows.',
          created_at: '2024-12-05T12:02:04.000Z',
          status: 'complete',
          brain: 'codex',
          model_requested: null,
          model_responded: 'gpt-4o',
        },
      ],
    });
    // The hidden system prompt, custom instructions and memory context are not words of the conversation.
    expect(transcripts[1]?.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', '안녕하세요! Say hello back 👋'],
      ['assistant', '안녕하세요! Hello 👋'],
    ]);
    expect(skipped).toEqual([{ title: 'Lost thread', reason: 'its current_node "gone" is not in its mapping' }]);
    for (const transcript of transcripts) expect(transcriptSchema.safeParse(transcript).success).toBe(true);
  });

  it('makes the reply current_node ends in the leaf, on whichever branch it is', () => {
    const [first] = sample() as Array<Record<string, unknown>>;
    const leafOf = (currentNode: string) => chatGptExportToTranscripts([{ ...first, current_node: currentNode }]).transcripts[0]?.conversation.current_leaf_id;
    expect(leafOf('a1-first')).toBe('a1-first');
    // A node inside a reply stands for the reply; a hidden node for the message before it.
    expect(leafOf('c1-code')).toBe('t1-thoughts');
    expect(leafOf('c3d4-context')).toBeUndefined();
  });

  it('keeps regenerated replies and an edited follow-up as alternatives, each reply a turn of its own, and a reply forked part-way once, each alternative going on from it', () => {
    const mapping = {
      u: node('u', null, { author: { role: 'user' }, content: text('Name a colour.') }),
      a1: node('a1', 'u', { author: { role: 'assistant' }, content: text('Teal.') }),
      a2: node('a2', 'u', { author: { role: 'assistant' }, content: text('Amber.') }),
      f1: node('f1', 'a2', { author: { role: 'user' }, content: text('Why?') }),
      f2: node('f2', 'a2', { author: { role: 'user' }, content: text('Another?') }),
      c: node('c', 'f2', { author: { role: 'assistant' }, recipient: 'python', content: { content_type: 'code', text: 'pick()' } }),
      o1: node('o1', 'c', { author: { role: 'tool', name: 'python' }, content: { content_type: 'execution_output', text: 'red' } }),
      o2: node('o2', 'c', { author: { role: 'tool', name: 'python' }, content: { content_type: 'execution_output', text: 'blue' } }),
    };
    // The parent lists its children in the order they were made, whatever order the mapping has.
    const ordered = { ...mapping, u: { ...mapping.u, children: ['a2', 'a1'] } };
    const [transcript] = chatGptExportToTranscripts([conversation(ordered, 'o2')]).transcripts;
    expect(transcript?.messages.map((message) => [message.id, message.turn_id, message.parent_id, message.text, message.tool_invocations?.map((call) => call.output) ?? []])).toEqual([
      ['u', 'turn-1', null, 'Name a colour.', []],
      ['a2', 'turn-1', 'u', 'Amber.', []],
      ['f1', 'turn-2', 'a2', 'Why?', []],
      ['f2', 'turn-3', 'a2', 'Another?', []],
      // The call made before the fork is stored once; each alternative answer is a call of its own after it.
      ['c', 'turn-3', 'f2', '', [null]],
      ['o1', 'turn-4', 'c', '', ['red']],
      ['o2', 'turn-5', 'c', '', ['blue']],
      ['a1', 'turn-6', 'u', 'Teal.', []],
    ]);
    expect(transcript?.conversation.current_leaf_id).toBe('o2');
    expect(transcriptSchema.safeParse(transcript).success).toBe(true);
  });

  it('refuses a file without the export\u2019s shape whole, naming the first bad path', () => {
    const broken = sample() as Array<Record<string, unknown>>;
    broken[1] = { ...broken[1], mapping: 'not a tree' };
    expect(() => chatGptExportToTranscripts(broken)).toThrow(ForeignImportError);
    expect(() => chatGptExportToTranscripts(broken)).toThrow(
      'The file is not a readable ChatGPT export: conversations[1].mapping: Invalid input: expected record, received string. Nothing was imported.',
    );
    const badRole = { mapping: { a: node('a', null, { author: { role: 7 }, content: text('hi') }) }, current_node: 'a' };
    expect(() => chatGptExportToTranscripts([badRole])).toThrow('conversations[0].mapping.a.message.author.role');
  });

  it('skips a conversation whose branch loops or that holds nothing to read, with the reason', () => {
    const looping = conversation({ a: node('a', 'b', { author: { role: 'user' }, content: text('hi') }), b: node('b', 'a', null) }, 'a', 'Loop');
    const hiddenOnly = conversation({ s: node('s', null, { author: { role: 'system' }, content: text('You are ChatGPT.') }) }, 's', 'Hidden');
    const noCurrent = { title: null, mapping: {} };
    expect(chatGptExportToTranscripts([looping, hiddenOnly, noCurrent])).toEqual({
      transcripts: [],
      skipped: [
        { title: 'Loop', reason: `its messages' parent links loop back to "a"` },
        { title: 'Hidden', reason: 'it holds no message a person wrote or read' },
        { title: 'Untitled conversation 3', reason: 'it names no current message (current_node is missing)' },
      ],
    });
  });

  it('merges one turn\u2019s assistant nodes into one reply and notes what a tool made or a user attached', () => {
    const mapping = {
      u: node('u', null, {
        author: { role: 'user' },
        content: text('Draw a cat, and read this'),
        metadata: { attachments: [{ id: 'file-doc', name: 'notes.pdf', mime_type: 'application/pdf' }] },
      }),
      a1: node('a1', 'u', { author: { role: 'assistant' }, content: text('Here is a plan.'), metadata: { model_slug: 'gpt-4o' } }),
      c: node('c', 'a1', { author: { role: 'assistant' }, recipient: 'dalle.text2im', content: { content_type: 'text', parts: ['{"prompt":"a cat"}'] } }),
      t: node('t', 'c', {
        author: { role: 'tool', name: 'dalle.text2im' },
        content: { content_type: 'multimodal_text', parts: [{ content_type: 'image_asset_pointer', asset_pointer: 'sediment://file_cat' }] },
      }),
      e: node('e', 't', { author: { role: 'tool', name: 'python' }, content: { content_type: 'system_error', name: 'Exception', text: 'Kernel died' } }),
      a2: node('a2', 'e', {
        author: { role: 'assistant' },
        content: text('Done.'),
        metadata: { model_slug: 'gpt-4o', finish_details: { type: 'interrupted' } },
      }),
    };
    const [transcript] = chatGptExportToTranscripts([conversation(mapping, 'a2')]).transcripts;
    expect(transcript?.messages).toEqual([
      { id: 'u', turn_id: 'turn-1', parent_id: null, role: 'user', kind: 'chat', text: 'Draw a cat, and read this\n\n[file: notes.pdf, not included in the export]' },
      {
        id: 'a1',
        turn_id: 'turn-1',
        parent_id: 'u',
        role: 'assistant',
        kind: 'chat',
        text: 'Here is a plan.\n\n[image: file_cat, not included in the export]\n\nDone.',
        status: 'stopped',
        brain: 'codex',
        model_requested: null,
        model_responded: 'gpt-4o',
        tool_invocations: [
          { id: 'a1-call-0', kind: 'tool', server: 'chatgpt', tool: 'dalle.text2im', provider_call_id: null, input: { text: '{"prompt":"a cat"}' }, output: '', status: 'ok' },
          { id: 'a1-call-1', kind: 'tool', server: 'chatgpt', tool: 'python', provider_call_id: null, input: {}, output: 'Kernel died', status: 'error' },
        ],
      },
    ]);
  });

  it('leaves out an empty user message and a reply of nothing readable, keeping the turns around them', () => {
    const mapping = {
      u1: node('u1', null, { author: { role: 'user' }, content: text('First?') }),
      a1: node('a1', 'u1', { author: { role: 'assistant' }, content: text('First.') }),
      u2: node('u2', 'a1', { author: { role: 'user' }, content: text('') }),
      a2: node('a2', 'u2', { author: { role: 'assistant' }, content: { content_type: 'unknown_widget', widget: {} } }),
      u3: node('u3', 'a2', { author: { role: 'user' }, content: text('Third?') }),
      a3: node('a3', 'u3', { author: { role: 'assistant' }, content: text('Third.') }),
    };
    const [transcript] = chatGptExportToTranscripts([conversation(mapping, 'a3')]).transcripts;
    expect(transcript?.messages.map((message) => [message.turn_id, message.role, message.text])).toEqual([
      ['turn-1', 'user', 'First?'],
      ['turn-1', 'assistant', 'First.'],
      ['turn-3', 'user', 'Third?'],
      ['turn-3', 'assistant', 'Third.'],
    ]);
  });

  it('recognises an export by its mapping, not by its name', () => {
    expect(looksLikeChatGptExport(sample())).toBe(true);
    expect(looksLikeChatGptExport([{ uuid: 'c', chat_messages: [] }])).toBe(false);
    expect(looksLikeChatGptExport({ mapping: {} })).toBe(false);
  });

  it('converts a question with 50,000 regenerated replies in time linear in them, each a reply in the order its parent lists', () => {
    const [transcript] = chatGptExportToTranscripts(chatGptSiblings(50_000)).transcripts;
    expect(transcript?.messages).toHaveLength(50_001);
    expect(transcript?.messages.slice(0, 3).map((message) => [message.id, message.parent_id, message.text])).toEqual([
      ['q', null, 'Name a number.'],
      ['reply-0', 'q', '0.'],
      ['reply-1', 'q', '1.'],
    ]);
    expect(transcript?.conversation.current_leaf_id).toBe('reply-49999');
    // Four times the replies: about four times the work when linear, sixteen when each reply rescans its siblings.
    expect(timeGrowth(chatGptSiblings(10_000), chatGptSiblings(40_000), chatGptExportToTranscripts)).toBeLessThan(10);
  });

  it('refuses a file whose message id appears twice in a conversation, or whose conversation id appears twice, naming both places', () => {
    const repeatedMessage = conversation(
      {
        a: node('a', null, { author: { role: 'user' }, content: text('Hi.') }),
        b: { ...node('b', 'a', { author: { role: 'assistant' }, content: text('Hello.') }), message: { id: 'a', author: { role: 'assistant' }, content: text('Hello.') } },
      },
      'b',
    );
    expect(() => chatGptExportToTranscripts([repeatedMessage])).toThrow(
      new ForeignImportError(
        'The file is not a readable ChatGPT export: conversations[0].mapping["b"].message.id: the id "a" appears twice (also at conversations[0].mapping["a"].message.id). Nothing was imported.',
      ),
    );
    const one = { ...conversation({ a: node('a', null, { author: { role: 'user' }, content: text('Hi.') }) }, 'a'), conversation_id: 'same' };
    expect(() => chatGptExportToTranscripts([one, { ...one }])).toThrow(
      new ForeignImportError(
        'The file is not a readable ChatGPT export: conversations[1].conversation_id: the id "same" appears twice (also at conversations[0].conversation_id). Nothing was imported.',
      ),
    );
  });
});
