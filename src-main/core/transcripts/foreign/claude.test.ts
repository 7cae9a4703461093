import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildReceipt } from '../../../../src-shared/receipt';
import { transcriptSchema, type TranscriptV1 } from '../../../../src-shared/transcript';
import { listConversations } from '../../store/conversations';
import { listInvocationsByMessage } from '../../store/invocations';
import { listAllMessages } from '../../store/messages';
import { openTestDatabase } from '../../store/test-database';
import { importTranscript } from '../import';
import { nestedValue, timeGrowth } from '../testing/hostile-imports';
import { ATTACHED_TEXT_LIMIT, claudeExportToTranscripts, isClaudeExport } from './claude';
import { ForeignImportError } from './types';

type Entry = Record<string, unknown> & { chat_messages: Array<Record<string, unknown>> };

/** A fresh copy of the synthetic export (e2e/fixtures/claude-export/SOURCES.md says what it follows). */
function sampleExport(): Entry[] {
  return JSON.parse(readFileSync(new URL('../../../../e2e/fixtures/claude-export/conversations.json', import.meta.url), 'utf8')) as Entry[];
}

/** One conversation around the given messages, in the export's shape. */
function exportOf(messages: Array<Record<string, unknown>>, fields: Record<string, unknown> = {}): Entry[] {
  return [{ uuid: 'conv-1', name: 'Sample', created_at: '2026-06-01T10:00:00.000Z', model: 'claude-opus-4-6', chat_messages: messages, ...fields }];
}

const human = (uuid: string, text: string, fields: Record<string, unknown> = {}) => ({ uuid, sender: 'human', text, content: [{ type: 'text', text }], ...fields });
const assistant = (uuid: string, content: unknown[], fields: Record<string, unknown> = {}) => ({ uuid, sender: 'assistant', text: '', content, ...fields });

const A = '019a1b2c-000';
const RATE_LIMITER: TranscriptV1 = {
  format: 'anybrain.transcript',
  version: 1,
  conversation: { id: '5f0c1a2e-7b3d-4c1e-9a8f-0d2b6e4c1a01', title: 'Rate limiter design', created_at: '2026-05-01T09:00:00.104Z' },
  messages: [
    {
      id: `${A}1-7000-8000-00000000a001`,
      turn_id: `turn-${A}1-7000-8000-00000000a001`,
      role: 'user',
      kind: 'chat',
      text:
        'How should I rate limit my API? The handler and a sketch are attached.\n\n' +
        '[attached: api.py, its extracted text follows]\n````\ndef handler(request):\n    return respond(request)  # ``` is not a fence here\n````\n\n' +
        '[attached: sketch.png, not included in the export]',
      created_at: '2026-05-01T09:00:01.201Z',
    },
    {
      id: `${A}2-7000-8000-00000000a002`,
      turn_id: `turn-${A}1-7000-8000-00000000a001`,
      role: 'assistant',
      kind: 'chat',
      text: 'Use a token bucket per API key.\n\nThe bucket refills at 10 tokens a second by default: 한국어 and 🌞 included.',
      created_at: '2026-05-01T09:00:02.900Z',
      status: 'complete',
      brain: 'claude',
      model_requested: null,
      model_responded: 'claude-sonnet-4-6',
      reasoning_level: null,
      reasoning: { brain: 'claude', model: 'claude-sonnet-4-6', text: 'The API is bursty, so a token bucket per key fits better than a fixed window.', opaque: null },
      tool_invocations: [
        {
          id: `${A}2-7000-8000-00000000a002:call:0`,
          kind: 'tool',
          server: null,
          tool: 'artifacts',
          provider_call_id: 'toolu_01AbCdEfGhIjKlMnOpQrStUv',
          input: {
            id: 'limiter',
            type: 'application/vnd.ant.code',
            title: 'limiter.py',
            command: 'create',
            language: 'python',
            content: 'class TokenBucket:\n    def __init__(self, rate, burst):\n        self.rate, self.tokens = rate, burst\n',
          },
          output: 'OK',
          status: 'ok',
        },
        {
          id: `${A}2-7000-8000-00000000a002:call:1`,
          kind: 'tool',
          server: null,
          tool: 'repl',
          provider_call_id: 'toolu_01WxYzAbCdEfGhIjKlMnOpQr',
          input: { code: 'bucket.take()' },
          output: 'ReferenceError: bucket is not defined',
          status: 'error',
        },
      ],
    },
    {
      id: `${A}3-7000-8000-00000000a003`,
      turn_id: `turn-${A}3-7000-8000-00000000a003`,
      role: 'user',
      kind: 'chat',
      text: 'And across several servers?',
      created_at: '2026-05-01T09:04:00.000Z',
    },
    {
      id: `${A}4-7000-8000-00000000a004`,
      turn_id: `turn-${A}3-7000-8000-00000000a003`,
      role: 'assistant',
      kind: 'chat',
      text: 'Keep the buckets in Redis, one key per client.',
      created_at: '2026-05-01T09:04:04.000Z',
      status: 'complete',
      brain: 'claude',
      model_requested: null,
      model_responded: 'claude-sonnet-4-6',
      reasoning_level: null,
      tool_invocations: [],
    },
  ],
};

const EXPLAIN_ANALYZE: TranscriptV1 = {
  format: 'anybrain.transcript',
  version: 1,
  conversation: { id: '8e2d4c6a-1f3b-4d5e-8a7c-9b0e1d2f3a02', title: 'What does EXPLAIN ANALYZE do?', created_at: '2024-03-02T18:20:11.531Z' },
  messages: [
    {
      id: '4c1f7a2e-0001-4e5d-9c3b-00000000b001',
      turn_id: 'turn-4c1f7a2e-0001-4e5d-9c3b-00000000b001',
      role: 'user',
      kind: 'chat',
      text:
        'What does EXPLAIN ANALYZE do?\nIn Postgres, on this plan:\n\n' +
        '[attached: pasted text, its extracted text follows]\n```\nSeq Scan on orders  (cost=0.00..431.00 rows=21000 width=36)\n```',
      created_at: '2024-03-02T18:20:11.920Z',
    },
    {
      id: '4c1f7a2e-0002-4e5d-9c3b-00000000b002',
      turn_id: 'turn-4c1f7a2e-0001-4e5d-9c3b-00000000b001',
      role: 'assistant',
      kind: 'chat',
      text: 'It runs the query and reports the real time and rows of each step beside the estimates.',
      created_at: '2024-03-02T18:20:19.004Z',
      status: 'complete',
      brain: 'claude',
      model_requested: null,
      model_responded: null,
      reasoning_level: null,
      tool_invocations: [],
    },
  ],
};

describe('claudeExportToTranscripts', () => {
  it('reads the sample export: the branch last seen, thinking as reasoning, tool work as calls, attachments as notes, the rest left out with reasons', () => {
    const result = claudeExportToTranscripts(sampleExport());
    expect(result).toEqual({
      transcripts: [RATE_LIMITER, EXPLAIN_ANALYZE],
      skipped: [
        { title: 'Untitled conversation', reason: 'conversations[2]: no messages' },
        { title: 'Half-saved draft', reason: 'conversations[3].chat_messages[1].content: Invalid input: expected array, received string' },
      ],
    });
    const schema = JSON.parse(readFileSync(new URL('../../../../src-shared/transcript-v1.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    for (const transcript of result.transcripts) {
      expect(transcriptSchema.safeParse(transcript).error).toBeUndefined();
      validate(transcript);
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  it('gives the same ids for the same file', () => {
    expect(claudeExportToTranscripts(sampleExport())).toEqual(claudeExportToTranscripts(sampleExport()));
  });

  it('follows the last message up to the root when the conversation names no current leaf', () => {
    const [rateLimiter] = sampleExport();
    delete rateLimiter!.current_leaf_message_uuid;
    const [transcript] = claudeExportToTranscripts([rateLimiter]).transcripts;
    expect(transcript?.messages.map((message) => message.text.split('\n')[0])).toEqual([
      'How should I rate limit my API? The handler and a sketch are attached.',
      'Use a token bucket per API key.',
      'And across instances, with no shared store?',
      'Split the limit between the instances.',
    ]);
  });

  it('keeps file order without parents, and stops a damaged chain at a cycle', () => {
    const linear = exportOf([human('h1', 'One'), assistant('a1', [{ type: 'text', text: 'Two' }]), human('h2', 'Three')]);
    expect(claudeExportToTranscripts(linear).transcripts[0]?.messages.map((message) => message.text)).toEqual(['One', 'Two', 'Three']);
    const cycle = exportOf([human('h1', 'One', { parent_message_uuid: 'a1' }), assistant('a1', [{ type: 'text', text: 'Two' }], { parent_message_uuid: 'h1' })]);
    expect(claudeExportToTranscripts(cycle).transcripts[0]?.messages.map((message) => message.text)).toEqual(['One', 'Two']);
  });

  it('leaves other senders and unknown content kinds out of the words', () => {
    const document = exportOf([
      { uuid: 's1', sender: 'system', text: 'You are Claude, made by Anthropic.' },
      human('h1', 'Hi'),
      assistant('a1', [{ type: 'token_budget' }, { type: 'text', text: 'Hello.' }, { type: 'voice_note', title: 'x' }]),
    ]);
    expect(claudeExportToTranscripts(document).transcripts[0]?.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello.'],
    ]);
  });

  it('stores an empty reply as failed, never as a finished turn, its thinking kept', () => {
    const document = exportOf([human('h1', 'Hi'), assistant('a1', [{ type: 'thinking', thinking: 'Hmm.' }, { type: 'thinking', thinking: 'Greet.' }])]);
    expect(claudeExportToTranscripts(document).transcripts[0]?.messages[1]).toEqual({
      id: 'a1',
      turn_id: 'turn-h1',
      role: 'assistant',
      kind: 'chat',
      text: '',
      status: 'failed',
      brain: 'claude',
      model_requested: null,
      model_responded: 'claude-opus-4-6',
      reasoning_level: null,
      reasoning: { brain: 'claude', model: 'claude-opus-4-6', text: 'Hmm.\n\nGreet.', opaque: null },
      tool_invocations: [],
      error: { code: 'empty-reply', message: 'This reply is empty in the Claude export.', retryable: true },
    });
  });

  it('pairs results without ids by name, keeps a call without a result as cancelled and a result without a call', () => {
    const document = exportOf([
      human('h1', 'Search twice'),
      assistant('a1', [
        { type: 'tool_use', name: 'web_search', input: { query: 'first' } },
        { type: 'tool_use', name: 'web_search', input: { query: 'second' } },
        { type: 'tool_result', name: 'web_search', content: [{ type: 'knowledge', title: 'First hit', url: 'https://example.com/1' }] },
        { type: 'tool_use', id: 'toolu_stopped', name: 'repl', input: 'not an object' },
        { type: 'tool_result', tool_use_id: 'toolu_gone', name: 'web_fetch', content: 'A page.', is_error: false },
        { type: 'text', text: 'Done.' },
      ]),
    ]);
    expect(claudeExportToTranscripts(document).transcripts[0]?.messages[1]?.tool_invocations).toEqual([
      { id: 'a1:call:0', kind: 'tool', server: null, tool: 'web_search', provider_call_id: null, input: { query: 'first' }, output: 'First hit\nhttps://example.com/1', status: 'ok' },
      { id: 'a1:call:1', kind: 'tool', server: null, tool: 'web_search', provider_call_id: null, input: { query: 'second' }, output: null, status: 'cancelled' },
      { id: 'a1:call:2', kind: 'tool', server: null, tool: 'repl', provider_call_id: 'toolu_stopped', input: { input: 'not an object' }, output: null, status: 'cancelled' },
      { id: 'a1:call:3', kind: 'tool', server: null, tool: 'web_fetch', provider_call_id: 'toolu_gone', input: {}, output: 'A page.', status: 'ok' },
    ]);
  });

  it('notes an attachment whose extracted text is over the limit by its length, without its text', () => {
    const long = 'x'.repeat(ATTACHED_TEXT_LIMIT + 1);
    const document = exportOf([human('h1', 'Read this', { attachments: [{ file_name: 'book.txt', extracted_content: long }, { file_name: 'scan.pdf' }] })]);
    expect(claudeExportToTranscripts(document).transcripts[0]?.messages[0]?.text).toBe(
      'Read this\n\n[attached: book.txt, 20,001 characters of extracted text, not included here]\n\n[attached: scan.pdf, not included in the export]',
    );
  });

  it('titles an unnamed conversation from its first message, and dates it by its first message when the entry has no date', () => {
    const document = exportOf([human('h1', '  Plan a trip\nto Seoul', { created_at: '2026-06-02T08:00:00Z' })], { name: '', created_at: null });
    expect(claudeExportToTranscripts(document).transcripts[0]?.conversation).toEqual({ id: 'conv-1', title: 'Plan a trip', created_at: '2026-06-02T08:00:00.000Z' });
    expect(claudeExportToTranscripts(exportOf([human('h1', 'Hi')], { created_at: null })).skipped).toEqual([
      { title: 'Sample', reason: 'conversations[0].created_at: missing, and no message has a time' },
    ]);
  });

  it('leaves out an entry that cannot be read, naming where, and reads the others', () => {
    const document = [...exportOf([human('h1', 'Hi')]), { uuid: 'conv-2', chat_messages: [{ uuid: 'm1', sender: 7 }] }, 'not a conversation'];
    const result = claudeExportToTranscripts(document);
    expect(result.transcripts.map((transcript) => transcript.conversation.id)).toEqual(['conv-1']);
    expect(result.skipped).toEqual([
      { title: 'Untitled conversation', reason: 'conversations[1].chat_messages[0].sender: Invalid input: expected string, received number' },
      { title: 'Untitled conversation', reason: 'conversations[2]: Invalid input: expected object, received string' },
    ]);
  });

  it('refuses a document that is not a Claude export, naming the first bad path', () => {
    const chatgpt = [{ title: 'A chat', create_time: 1714550400.5, mapping: {}, current_node: 'n1' }];
    expect(() => claudeExportToTranscripts(chatgpt)).toThrow(ForeignImportError);
    expect(() => claudeExportToTranscripts(chatgpt)).toThrow(
      'The file is not a Claude data export: conversations[0].chat_messages: Invalid input: expected array, received undefined.',
    );
    expect(() => claudeExportToTranscripts({ format: 'anybrain.transcript', version: 1 })).toThrow(
      'The file is not a Claude data export: conversations: Invalid input: expected array, received object.',
    );
    expect(claudeExportToTranscripts([])).toEqual({ transcripts: [], skipped: [] });
  });

  it('recognises a Claude export by its chat_messages', () => {
    expect(isClaudeExport(sampleExport())).toBe(true);
    expect([[{ title: 'A chat', mapping: {} }], [], { chat_messages: [] }, null].map(isClaudeExport)).toEqual([false, false, false, false]);
  });

  it('writes times as the app does, and leaves out a time that is no time', () => {
    const document = exportOf([human('h1', 'Hi', { created_at: '2026-06-01T19:00:00.123456+09:00' }), human('h2', 'Again', { created_at: 'yesterday' })]);
    expect(claudeExportToTranscripts(document).transcripts[0]?.messages.map((message) => message.created_at)).toEqual(['2026-06-01T10:00:00.123Z', undefined]);
  });

  it('refuses a file whose message uuid appears twice in a conversation, or whose conversation uuid appears twice, naming both places', () => {
    const repeated = exportOf([human('h1', 'First'), assistant('a1', [{ type: 'text', text: 'One.' }]), human('h1', 'Second')]);
    expect(() => claudeExportToTranscripts(repeated)).toThrow(
      new ForeignImportError(
        'The file is not a readable Claude export: conversations[0].chat_messages[2].uuid: the id "h1" appears twice (also at conversations[0].chat_messages[0].uuid). Nothing was imported.',
      ),
    );
    const [entry] = exportOf([human('h1', 'Hi')]);
    expect(() => claudeExportToTranscripts([entry, structuredClone(entry)])).toThrow(
      new ForeignImportError(
        'The file is not a readable Claude export: conversations[1].uuid: the id "conv-1" appears twice (also at conversations[0].uuid). Nothing was imported.',
      ),
    );
  });

  it('refuses a tool input nested 2,000 levels deep naming where it is, instead of overflowing the stack', () => {
    const deep = exportOf([human('h1', 'Go.'), assistant('a1', [{ type: 'tool_use', id: 'call-1', name: 'search', input: nestedValue(2_000) }, { type: 'text', text: 'Done.' }])]);
    expect(() => claudeExportToTranscripts(deep)).toThrow(
      new ForeignImportError('The file is not a readable Claude export: conversations[0].chat_messages[1].content[0].input: nested more than 100 levels deep. Nothing was imported.'),
    );
    // A hundred levels is still a tool input.
    const deepest = exportOf([human('h1', 'Go.'), assistant('a1', [{ type: 'tool_use', id: 'call-1', name: 'search', input: nestedValue(100) }])]);
    expect(claudeExportToTranscripts(deepest).transcripts[0]?.messages[1]?.tool_invocations?.[0]?.input).toEqual(nestedValue(100));
  });

  it('pairs the results of a reply with thousands of calls in time linear in them, each with its own call', () => {
    const reply = (calls: number) =>
      exportOf([
        human('h1', 'Look everything up.'),
        assistant('a1', [
          ...Array.from({ length: calls }, (_, index) => ({ type: 'tool_use', id: `call-${index}`, name: 'search', input: { index } })),
          ...Array.from({ length: calls }, (_, index) => ({ type: 'tool_result', tool_use_id: `call-${calls - 1 - index}`, content: `result ${calls - 1 - index}` })),
          { type: 'text', text: 'Found them all.' },
        ]),
      ]);
    const calls = claudeExportToTranscripts(reply(3)).transcripts[0]?.messages[1]?.tool_invocations;
    expect(calls?.map((call) => [call.provider_call_id, call.input, call.output])).toEqual([
      ['call-0', { index: 0 }, 'result 0'],
      ['call-1', { index: 1 }, 'result 1'],
      ['call-2', { index: 2 }, 'result 2'],
    ]);
    // Four times the calls: about four times the work when linear, sixteen when each result rescans the calls.
    expect(timeGrowth(reply(10_000), reply(40_000), claudeExportToTranscripts)).toBeLessThan(10);
  });
});

describe('a Claude export through the transcript importer', () => {
  it('stores thinking as reasoning, tool work as invocation rows with a receipt, and the words as the file has them', () => {
    const db = openTestDatabase();
    const ids = claudeExportToTranscripts(sampleExport()).transcripts.map((transcript) => importTranscript(db, JSON.stringify(transcript)));
    expect(listConversations(db).map((conversation) => conversation.title).sort()).toEqual(['Rate limiter design', 'What does EXPLAIN ANALYZE do?']);

    const rows = listAllMessages(db, ids[0]!);
    expect(rows.map((row) => [row.role, row.text, row.status, row.brain, row.modelResponded])).toEqual(
      RATE_LIMITER.messages.map((message) => [message.role, message.text, 'complete', message.brain ?? null, message.model_responded ?? null]),
    );
    expect(rows[0]?.turnId).toBe(rows[1]?.turnId);
    expect(rows[2]?.turnId).not.toBe(rows[1]?.turnId);
    expect(rows[1]?.reasoning).toEqual({ brain: 'claude', model: 'claude-sonnet-4-6', text: 'The API is bursty, so a token bucket per key fits better than a fixed window.', opaque: null });
    expect(rows[1]?.text).not.toContain('bursty');

    const invocations = listInvocationsByMessage(db, [rows[1]!.id]).get(rows[1]!.id) ?? [];
    expect(invocations.map((row) => [row.kind, row.server, row.tool, row.providerCallId, row.output, row.status])).toEqual([
      ['tool', null, 'artifacts', 'toolu_01AbCdEfGhIjKlMnOpQrStUv', 'OK', 'ok'],
      ['tool', null, 'repl', 'toolu_01WxYzAbCdEfGhIjKlMnOpQr', 'ReferenceError: bucket is not defined', 'error'],
    ]);
    expect(invocations[1]?.input).toEqual({ code: 'bucket.take()' });
    const receipt = buildReceipt(invocations);
    expect([receipt.summary, receipt.chips.map((chip) => [chip.label, chip.status])]).toEqual([
      '2 tools',
      [
        ['artifacts', 'ok'],
        ['repl', 'error'],
      ],
    ]);

    expect(listAllMessages(db, ids[1]!).map((row) => [row.role, row.text, row.reasoning])).toEqual(
      EXPLAIN_ANALYZE.messages.map((message) => [message.role, message.text, null]),
    );
  });
});
