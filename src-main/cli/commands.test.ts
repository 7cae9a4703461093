import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCore, type OpenedCore } from '../core/app';
import type { ProviderCall, StreamPart } from '../core/providers/stream-parts';
import { sentBody } from '../core/providers/testing/sent-body';
import { listInvocationsByMessage } from '../core/store/invocations';
import { everythingServer } from '../core/tools/mcp/testing/servers';
import { chatCommand, compactCommand, doctorCommand, exportCommand, importCommand, repairCommand, requestCommand } from './commands';
import { capture } from './captured-output';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A brain that calls everything__echo once, then answers with what the tool said. */
async function* echoingBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  const body = JSON.stringify(call.body);
  if (!body.includes('tool_result')) {
    yield { type: 'tool-call', providerCallId: 'toolu_1', name: 'everything__echo', input: { message: 'from the terminal' } };
    return;
  }
  yield { type: 'text-delta', text: body.includes('"is_error":true') ? 'It was not allowed.' : 'It echoed.' };
}

async function coreWithEverything(): Promise<OpenedCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
  const core = openCore({ dataDir, env: { ANTHROPIC_API_KEY: 'k' }, stream: echoingBrain });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  const server = everythingServer();
  const saved = await core.dispatch('saveMcpServer', { id: server.id, label: server.label, command: server.command, args: [...server.args], env: {} });
  expect(saved.ok).toBe(true);
  // A saved server is disabled until the user turns it on.
  expect(await core.dispatch('setMcpServerEnabled', { id: server.id, enabled: true })).toMatchObject({ ok: true });
  return core;
}

describe('anybrain chat and tools that ask first', () => {
  it('denies a call that needs approval when nobody is at a terminal, and says so', async () => {
    const core = await coreWithEverything();
    const output = capture();
    expect(await chatCommand(core, output, { brain: 'claude', text: 'echo please' })).toBe(0);
    expect(output.out).toBe('It was not allowed.\n');
    expect(output.err).toContain('Denied everything · echo: it needs approval and nobody is at a terminal to give it.');
  }, 60_000);

  it('runs the call when the person at the terminal allows it', async () => {
    const core = await coreWithEverything();
    const output = capture();
    const asked: string[] = [];
    const code = await chatCommand(core, output, {
      brain: 'claude',
      text: 'echo please',
      askApproval: async (approval) => {
        asked.push(`${approval.server}/${approval.tool}`);
        return 'allow';
      },
    });
    expect(code).toBe(0);
    expect(asked).toEqual(['everything/echo']);
    expect(output.out).toBe('It echoed.\n');
    const conversationId = output.err.trim().split('\n')[0]!;
    const page = await core.dispatch('listMessages', { conversationId });
    const reply = (page as { ok: true; value: { messages: Array<{ id: string }> } }).value.messages[1]!;
    expect((listInvocationsByMessage(core.db, [reply.id]).get(reply.id) ?? []).map((row) => [row.tool, row.status, row.output])).toEqual([
      ['echo', 'ok', 'Echo: from the terminal'],
    ]);
  }, 60_000);
});

/** A brain that answers a compaction request with a summary naming how many user lines it read, and anything else with "ok". */
async function* summarisingBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  const body = JSON.stringify(sentBody(call));
  const users = body.match(/\\nUser: /g)?.length ?? 0;
  yield { type: 'text-delta', text: body.includes('[Anybrain compaction request]') ? `Summary of ${users} user messages.` : 'ok' };
}

async function longConversation(): Promise<{ core: OpenedCore; conversationId: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
  const core = openCore({ dataDir, env: { MOONSHOT_API_KEY: 'k' }, stream: summarisingBrain });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  const messages = Array.from({ length: 60 }, (_, index) => ({
    id: `m${index}`, turn_id: `t${Math.floor(index / 2)}`, role: index % 2 === 0 ? 'user' : 'assistant', kind: 'chat',
    text: `${index % 2 === 0 ? 'question' : 'answer'} ${index}: ${'lorem ipsum dolor '.repeat(30)}`, ...(index % 2 === 1 ? { status: 'complete', brain: 'kimi' } : {}),
  }));
  const content = JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id: 'x', title: 'Long', created_at: '2026-12-01T00:00:00.000Z' }, messages });
  const imported = await core.dispatch('importTranscript', { content });
  const conversationId = (imported as { ok: true; value: { id: string } }).value.id;
  expect(await core.dispatch('setConversationBrain', { id: conversationId, brain: 'kimi' })).toMatchObject({ ok: true });
  expect(await core.dispatch('setModelWindow', { brain: 'kimi', model: 'kimi-k2.6', contextWindow: 6_000, outputLimit: 1_000 })).toMatchObject({ ok: true });
  return { core, conversationId };
}

describe('anybrain request and compact against a window', () => {
  it('request says on stderr which window it built against and how many older messages it left out', async () => {
    const { core, conversationId } = await longConversation();
    const output = capture();
    expect(await requestCommand(core, output, { conversation: conversationId, brain: 'kimi' })).toBe(0);
    const [window, outside] = output.err.split('\n');
    expect(window).toMatch(/^Window: Kimi \(kimi-k2\.6\) holds 6,000 tokens \(your setting\)\. The conversation is about [\d,]+ tokens, [\d,]+ % of Kimi's window; this request holds about [\d,]+ \(\d+ %\)\.$/);
    expect(outside).toMatch(new RegExp(`^\\d+ older messages are outside Kimi's window and left out; \`anybrain compact --conversation ${conversationId} --brain kimi\` summarises them\\.$`));
    expect(output.out).toContain("Older messages of this conversation are outside Kimi's window and not shown here.");
  });

  it('compact summarises the oldest messages, says so, and prints the summary', async () => {
    const { core, conversationId } = await longConversation();
    const previewed = capture();
    expect(await compactCommand(core, previewed, { conversation: conversationId, brain: 'kimi', preview: true })).toBe(0);
    expect(previewed.out).toMatch(/^Kimi will summarise (\d+) messages, up to “.+”, for Kimi's window\. They stay in the conversation, folded under the summary, and other brains keep them while their windows hold them\.\n$/);
    const folds = /summarise (\d+) messages/.exec(previewed.out)![1];
    const output = capture();
    expect(await compactCommand(core, output, { conversation: conversationId, brain: 'kimi' })).toBe(0);
    const lines = output.err.trim().split('\n');
    expect(lines[0]).toMatch(/^Kimi \(kimi-k2\.6\) is summarising \d+ messages…$/);
    expect(lines.at(-1)).toBe(`Kimi summarised ${folds} messages; they stay in the conversation, folded under the summary.`);
    expect(output.out).toMatch(/^Summary of \d+ user messages\.\n$/);
    const after = capture();
    await requestCommand(core, after, { conversation: conversationId, brain: 'kimi' });
    expect(after.err).not.toContain('outside');
    expect(after.err).toContain("History: Kimi's request holds a summary written for Kimi's window in place of the older messages");
    expect(after.out).toContain("[System line, summary: neither the assistant's words nor the user's]");
  });

  it('refuses an unknown brain', async () => {
    const { core, conversationId } = await longConversation();
    await expect(compactCommand(core, capture(), { conversation: conversationId, brain: 'hal' })).rejects.toThrow('Unknown brain "hal".');
  });
});

/**
 * Gemini 3 as it streams a signed call: the thought's text, a current_time call carrying its own thoughtSignature,
 * then (once the call's answer is in the request) the reply, whose text part carries another signature.
 */
async function* signingGemini(call: ProviderCall): AsyncIterable<StreamPart> {
  if (!JSON.stringify(call.body).includes('functionResponse')) {
    yield { type: 'reasoning-delta', text: 'The user wants the time in UTC.' };
    yield { type: 'tool-call', providerCallId: null, name: 'current_time', input: { zone: 'UTC' }, opaque: { thoughtSignature: 'Q2FsbFNpZ25hdHVyZQ==' } };
    yield { type: 'finish', reason: 'tool-calls', rawReason: 'STOP' };
    return;
  }
  yield { type: 'text-delta', text: 'It is noon in UTC.' };
  yield { type: 'reasoning-opaque', opaque: { thoughtSignature: 'VGV4dFNpZ25hdHVyZQ==' } };
  yield { type: 'finish', reason: 'stop', rawReason: 'STOP' };
}

/** Gemini refusing the turn for its rate limit, asking for half a minute. */
async function* rateLimitedGemini(): AsyncIterable<StreamPart> {
  yield {
    type: 'error',
    error: { code: 'rate-limited', message: 'Gemini is rate limiting this key (HTTP 429); try again in 30 s.', status: 429, retryable: true, retryAfterSeconds: 30 },
  };
}

function geminiCore(stream: (call: ProviderCall) => AsyncIterable<StreamPart>): { core: OpenedCore; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
  const core = openCore({ dataDir, env: { GEMINI_API_KEY: 'k' }, stream });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  return { core, dataDir };
}

/** `anybrain export --format json --out FILE` then `anybrain import FILE`: the new conversation's id. */
async function exportAndImport(core: OpenedCore, dataDir: string, conversationId: string): Promise<string> {
  const file = join(dataDir, 'transcript.json');
  expect(await exportCommand(core, capture(), { conversation: conversationId, format: 'json', out: file })).toBe(0);
  const imported = capture();
  expect(await importCommand(core, imported, file)).toBe(0);
  return imported.out.trim();
}

describe('anybrain export and import keep what the next turn replays', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a Gemini call's own thoughtSignature, so the next turn sends the same body, not the dummy signature", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T12:00:00.000Z'));
    const { core, dataDir } = geminiCore(signingGemini);
    const chat = capture();
    expect(await chatCommand(core, chat, { brain: 'gemini', text: 'What time is it?' })).toBe(0);
    const conversationId = chat.err.trim().split('\n')[0]!;
    const importedId = await exportAndImport(core, dataDir, conversationId);

    const request = capture();
    expect(await requestCommand(core, request, { conversation: importedId, brain: 'gemini', message: 'And in Tokyo?' })).toBe(0);
    const body = JSON.parse(request.out) as Record<string, unknown>;
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'What time is it?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'current_time', args: { zone: 'UTC' } }, thoughtSignature: 'Q2FsbFNpZ25hdHVyZQ==' }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'current_time', response: { output: '2026-12-01T12:00:00+00:00 (UTC)' } } }],
      },
      { role: 'model', parts: [{ text: 'It is noon in UTC.', thoughtSignature: 'VGV4dFNpZ25hdHVyZQ==' }] },
      { role: 'user', parts: [{ text: 'And in Tokyo?' }] },
    ]);
    // The rest of the body (system prompt, tools, generation settings) is byte for byte the original conversation's.
    const original = capture();
    expect(await requestCommand(core, original, { conversation: conversationId, brain: 'gemini', message: 'And in Tokyo?' })).toBe(0);
    expect(request.out).toBe(original.out);
  });

  it("keeps a failed reply's error", async () => {
    const { core, dataDir } = geminiCore(rateLimitedGemini);
    const chat = capture();
    expect(await chatCommand(core, chat, { brain: 'gemini', text: 'Hello?' })).toBe(1);
    const conversationId = chat.err.trim().split('\n')[0]!;
    const importedId = await exportAndImport(core, dataDir, conversationId);

    const replyOf = async (id: string) => {
      const page = await core.dispatch('listMessages', { conversationId: id });
      return (page as { ok: true; value: { messages: Array<{ status: string; error: unknown }> } }).value.messages[1]!;
    };
    const expected = {
      status: 'failed',
      error: { code: 'rate-limited', message: 'Gemini is rate limiting this key (HTTP 429); try again in 30 s.', retryable: true, status: 429, retryAfterSeconds: 30 },
    };
    expect(await replyOf(conversationId)).toMatchObject(expected);
    expect(await replyOf(importedId)).toMatchObject(expected);
  });
});

describe('anybrain import of other apps\u2019 exports', () => {
  const chatGptExport = join(__dirname, '../../e2e/fixtures/chatgpt-export/conversations.json');

  function emptyCore(): { core: OpenedCore; dataDir: string } {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
    const core = openCore({ dataDir, env: {}, stream: echoingBrain });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    return { core, dataDir };
  }

  it('prints one new conversation id per line and the summary on stderr, from conversations.json or its zip', async () => {
    const { core, dataDir } = emptyCore();
    const fromJson = capture();
    expect(await importCommand(core, fromJson, chatGptExport)).toBe(0);
    const ids = fromJson.out.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(fromJson.err).toBe(
      '2 conversations, 8 messages imported; 1 skipped: "Lost thread" (its current_node "gone" is not in its mapping).\n',
    );
    const titles = await Promise.all(ids.map(async (id) => ((await core.dispatch('getConversation', { id })) as { value: { title: string } }).value.title));
    expect(titles).toEqual(['Counting primes', 'Greetings']);

    const zipFile = join(dataDir, 'chatgpt-export.zip');
    writeFileSync(zipFile, zipSync({ 'chat.html': strToU8('<html></html>'), 'conversations.json': readFileSync(chatGptExport) }));
    const fromZip = capture();
    expect(await importCommand(core, fromZip, zipFile)).toBe(0);
    expect(fromZip.out.trim().split('\n')).toHaveLength(2);
    expect(fromZip.err).toBe(fromJson.err);
  });

  it('prints a transcript\u2019s one id as before, and refuses a malformed export naming the first bad path', async () => {
    const { core, dataDir } = emptyCore();
    const transcriptFile = join(dataDir, 'one.json');
    const transcript = {
      format: 'anybrain.transcript',
      version: 1,
      conversation: { id: 'old', title: 'One', created_at: '2026-01-01T00:00:00.000Z' },
      messages: [{ id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'hi' }],
    };
    writeFileSync(transcriptFile, JSON.stringify(transcript));
    const single = capture();
    expect(await importCommand(core, single, transcriptFile)).toBe(0);
    expect(single.out).toMatch(/^[0-9A-Z]{26}\n$/);
    expect(single.err).toBe('1 conversation, 1 message imported.\n');

    const brokenFile = join(dataDir, 'conversations.json');
    const broken = JSON.parse(readFileSync(chatGptExport, 'utf8')) as Array<Record<string, unknown>>;
    broken[0] = { ...broken[0], title: ['not', 'a', 'title'] };
    writeFileSync(brokenFile, JSON.stringify(broken));
    await expect(importCommand(core, capture(), brokenFile)).rejects.toThrow(
      'The file is not a readable ChatGPT export: conversations[0].title: Invalid input: expected string, received array. Nothing was imported.',
    );
    expect(((await core.dispatch('listConversations', {})) as { value: unknown[] }).value).toHaveLength(1);

    // An export whose every conversation was skipped imported nothing: the summary says why, and the exit code fails.
    const lostOnly = join(dataDir, 'lost.json');
    writeFileSync(lostOnly, JSON.stringify(broken.slice(2)));
    const nothing = capture();
    expect(await importCommand(core, nothing, lostOnly)).toBe(1);
    expect([nothing.out, nothing.err]).toEqual(['', '0 conversations, 0 messages imported; 1 skipped: "Lost thread" (its current_node "gone" is not in its mapping).\n']);
  });
});

describe('anybrain export flags', () => {
  it('--no-tools, --reasoning and --turns reach the export', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-export-flags-'));
    const core = openCore({ dataDir, env: {} });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    const transcript = {
      format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Flags', created_at: '2026-01-01T00:00:00.000Z' },
      messages: [
        { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'First question.' },
        {
          id: 'a1', turn_id: 't1', role: 'assistant', kind: 'chat', status: 'complete', text: 'First answer.', brain: 'claude',
          reasoning: { brain: 'claude', model: 'claude-opus-4-7', text: 'Thinking it over.', opaque: {} },
          tool_invocations: [{ id: 'i1', kind: 'tool', server: 'files', tool: 'read_file', input: {}, output: 'notes', status: 'ok' }],
        },
        { id: 'u2', turn_id: 't2', role: 'user', kind: 'chat', text: 'Second question.' },
      ],
    };
    const file = join(dataDir, 'in.json');
    writeFileSync(file, JSON.stringify(transcript));
    const imported = capture();
    expect(await importCommand(core, imported, file)).toBe(0);
    const conversation = imported.out.trim();
    // The import mints the turn ids.
    const listed = await core.dispatch('listMessages', { conversationId: conversation });
    const firstTurn = listed.ok ? (listed.value as { messages: { turnId: string }[] }).messages[0]!.turnId : '';
    const run = async (flags: { tools?: boolean; reasoning?: boolean; turns?: string }) => {
      const output = capture();
      expect(await exportCommand(core, output, { conversation, format: 'md', ...flags })).toBe(0);
      return output.out;
    };
    const plain = await run({});
    expect([plain.includes('read_file'), plain.includes('Thinking it over.'), plain.includes('Second question.')]).toEqual([true, false, true]);
    const flagged = await run({ tools: false, reasoning: true, turns: `${firstTurn}, ` });
    expect([flagged.includes('read_file'), flagged.includes('Thinking it over.'), flagged.includes('Second question.')]).toEqual([false, true, false]);
  });

  it('--branches all writes every branch, the live path by default, in a single export and with --all', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-export-branches-'));
    // From the sources no export worker is built: --all writes its zip in-process.
    const core = openCore({ dataDir, env: {}, exportArchives: 'in-process' });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    const transcript = {
      format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Forked', created_at: '2026-01-01T00:00:00.000Z', current_leaf_id: 'a1b' },
      messages: [
        { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'Pick a colour.' },
        { id: 'a1a', turn_id: 't1', parent_id: 'u1', role: 'assistant', kind: 'chat', status: 'complete', text: 'Teal.', brain: 'claude' },
        { id: 'a1b', turn_id: 't2', parent_id: 'u1', role: 'assistant', kind: 'chat', status: 'complete', text: 'Amber.', brain: 'kimi' },
      ],
    };
    const file = join(dataDir, 'in.json');
    writeFileSync(file, JSON.stringify(transcript));
    const imported = capture();
    expect(await importCommand(core, imported, file)).toBe(0);
    const conversation = imported.out.trim();
    const words = (markdown: string) => markdown.split('\n').filter((line) => /^(Teal|Amber)\.$|^\*Alternative/.test(line));
    const run = async (flags: { branches?: string }) => {
      const output = capture();
      expect(await exportCommand(core, output, { conversation, format: 'md', ...flags })).toBe(0);
      return words(output.out);
    };
    expect(await run({})).toEqual(['Amber.']);
    expect(await run({ branches: 'live' })).toEqual(['Amber.']);
    expect(await run({ branches: 'all' })).toEqual(['*Alternative 1 of 2 after message 1.*', 'Teal.', '*Alternative 2 of 2 after message 1 (current branch).*', 'Amber.']);
    const folder = join(dataDir, 'all');
    expect(await exportCommand(core, capture(), { all: true, format: 'md', out: folder, branches: 'all' })).toBe(0);
    const written = readdirSync(folder).filter((name) => name.endsWith('.md'));
    expect(written.map((name) => words(readFileSync(join(folder, name), 'utf8')))).toEqual([
      ['*Alternative 1 of 2 after message 1.*', 'Teal.', '*Alternative 2 of 2 after message 1 (current branch).*', 'Amber.'],
    ]);
  });
});


describe('anybrain chat --regenerate', () => {
  /** Each brain answers with its name and the last words it was sent. */
  async function* namingBrain(call: ProviderCall): AsyncIterable<StreamPart> {
    const body = JSON.stringify(call.body);
    yield { type: 'text-delta', text: `${call.label} answers (${body.includes('Kimi answers') ? 'seeing' : 'not seeing'} Kimi's answer)` };
  }

  function coreWithNamingBrain(): OpenedCore {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
    const core = openCore({ dataDir, env: { ANTHROPIC_API_KEY: 'k', MOONSHOT_API_KEY: 'k' }, stream: namingBrain });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    return core;
  }

  it('answers the last user message of the branch shown again, as a sibling reply by the brain named', async () => {
    const core = coreWithNamingBrain();
    const first = capture();
    expect(await chatCommand(core, first, { brain: 'kimi', text: 'What is the first answer?' })).toBe(0);
    const conversation = first.err.trim();
    const again = capture();
    expect(await chatCommand(core, again, { conversation, brain: 'claude', regenerate: true })).toBe(0);
    // The question is replayed, never the reply it had before.
    expect(again.out).toBe("Claude answers (not seeing Kimi's answer)\n");
    expect(again.err).toBe(`${conversation}\n`);
    const page = await core.dispatch('listMessages', { conversationId: conversation });
    const messages = (page as { ok: true; value: { messages: Array<{ text: string; brain: string | null; parentId: string | null; siblings: unknown }> } }).value.messages;
    expect(messages.map((message) => [message.text, message.brain, message.siblings === null ? null : 'has siblings'])).toEqual([
      ['What is the first answer?', null, null],
      ["Claude answers (not seeing Kimi's answer)", 'claude', 'has siblings'],
    ]);
    expect(messages[1]?.siblings).toMatchObject({ index: 2, count: 2, nextId: null });
  });

  it('refuses a message with --regenerate, --regenerate without a conversation, no message at all, and a conversation with nothing to answer', async () => {
    const core = coreWithNamingBrain();
    await expect(chatCommand(core, capture(), { conversation: 'c', brain: 'kimi', regenerate: true, text: 'hi' })).rejects.toThrow(
      '--regenerate answers the last message again: give no message with it.',
    );
    await expect(chatCommand(core, capture(), { brain: 'kimi', regenerate: true })).rejects.toThrow(
      '--regenerate answers a message of a conversation: name it with --conversation ID.',
    );
    await expect(chatCommand(core, capture(), { brain: 'kimi' })).rejects.toThrow(
      'Give the message to send (or --attach FILE), or --regenerate with --conversation ID to answer the last one again.',
    );
    const created = await core.dispatch('createConversation', { brain: 'kimi' });
    const conversation = (created as { ok: true; value: { id: string } }).value.id;
    await expect(chatCommand(core, capture(), { conversation, brain: 'kimi', regenerate: true })).rejects.toThrow(
      'There is no message to answer again in this conversation.',
    );
  });
});

describe('anybrain doctor', () => {
  it('reports the files a killed import or attach left, which this start removed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    mkdirSync(join(dataDir, 'attachments'), { recursive: true });
    // What a SIGKILL between writing an attachment's bytes and storing its row leaves, and a write cut short.
    writeFileSync(join(dataDir, 'attachments', 'a'.repeat(64)), Buffer.alloc(1_500_000));
    writeFileSync(join(dataDir, 'attachments', `${'b'.repeat(64)}.999999.1.tmp`), Buffer.alloc(500_000));
    const core = openCore({ dataDir, env: {} });
    cleanups.push(() => core.dispose());
    const output = capture();
    expect(await doctorCommand(core, output)).toBe(0);
    expect(output.out).toContain('\nleftover files removed at this start: 2 (2.0 MB)\nleftover files kept while another Anybrain uses this folder: 0\n');
    expect(readdirSync(join(dataDir, 'attachments'))).toEqual([]);
  });
});

describe('anybrain doctor and repair live-path', () => {
  it('count the conversations whose marked path is not the walk from their leaf, and re-mark them with --apply', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
    const core = openCore({ dataDir, env: { MOONSHOT_API_KEY: 'k' }, stream: async function* () { yield { type: 'text-delta', text: 'ok' }; } });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    const conversations: string[] = [];
    for (const text of ['first talk', 'second talk', 'third talk']) {
      const output = capture();
      expect(await chatCommand(core, output, { brain: 'kimi', text })).toBe(0);
      const conversation = output.err.trim();
      expect(await chatCommand(core, capture(), { conversation, brain: 'kimi', regenerate: true })).toBe(0);
      conversations.push(conversation);
    }
    const healthy = capture();
    expect(await doctorCommand(core, healthy)).toBe(0);
    expect(healthy.out).toContain('\nconversations showing a branch other than their current one: 0\n');

    const marks = () => core.db.$client.prepare('SELECT id, on_live_path AS mark FROM messages ORDER BY conversation_id, seq').all();
    const sound = marks();
    // Damage the marks by hand: the hidden first reply of one conversation marked too, and the shown path of
    // another unmarked.
    core.db.$client.prepare("UPDATE messages SET on_live_path = 1 WHERE conversation_id = ? AND role = 'assistant'").run(conversations[0]);
    core.db.$client.prepare('UPDATE messages SET on_live_path = 0 WHERE conversation_id = ?').run(conversations[2]);
    const sick = capture();
    expect(await doctorCommand(core, sick)).toBe(1);
    expect(sick.out).toContain('\nconversations showing a branch other than their current one: 2\n');
    expect(sick.err).toContain('`anybrain repair live-path`');

    const dryRun = capture();
    expect(await repairCommand(core, dryRun, { kind: 'live-path' })).toBe(0);
    expect(dryRun.out.split('\n').filter(Boolean).sort()).toEqual([conversations[0], conversations[2]].sort());
    expect(dryRun.err).toBe('2 conversations would have their shown branch marked again. Nothing was changed; add --apply to mark them.\n');
    const applied = capture();
    expect(await repairCommand(core, applied, { kind: 'live-path', apply: true })).toBe(0);
    expect(applied.err).toBe('2 conversations had their shown branch marked again.\n');
    expect(marks()).toEqual(sound);
    expect(await doctorCommand(core, capture())).toBe(0);
    await expect(repairCommand(core, capture(), { kind: 'live-path', undo: true })).rejects.toThrow('A live-path repair has nothing to undo');
    await expect(repairCommand(core, capture(), { kind: 'everything' })).rejects.toThrow('Say what to repair: quote-escapes, chrome, live-path (or --undo).');
  });
});

describe('anybrain export of attachments', () => {
  it('--embed puts the bytes in the JSON, Markdown writes them beside --out, and --all writes them into the folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-export-attachments-'));
    const core = openCore({ dataDir, env: {}, exportArchives: 'in-process' });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const photo = { name: 'photo.png', media_type: 'image/png', size: png.length, sha256: createHash('sha256').update(png).digest('hex') };
    const transcript = {
      format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Photo', created_at: '2026-01-01T00:00:00.000Z' },
      messages: [
        { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'What is this?', attachments: [{ ...photo, data_base64: png.toString('base64') }] },
        { id: 'a1', turn_id: 't1', role: 'assistant', kind: 'chat', status: 'complete', text: 'A pixel.', brain: 'gemini' },
      ],
    };
    const file = join(dataDir, 'in.json');
    writeFileSync(file, JSON.stringify(transcript));
    const imported = capture();
    expect(await importCommand(core, imported, file)).toBe(0);
    const conversation = imported.out.trim();

    const json = async (embed: boolean) => {
      const output = capture();
      expect(await exportCommand(core, output, { conversation, format: 'json', ...(embed ? { embed } : {}) })).toBe(0);
      return (JSON.parse(output.out) as { messages: Array<{ attachments?: unknown[] }> }).messages[0]!.attachments;
    };
    expect(await json(false)).toEqual([photo]);
    expect(await json(true)).toEqual([{ ...photo, data_base64: png.toString('base64') }]);

    const out = join(dataDir, 'notes.md');
    const written = capture();
    expect(await exportCommand(core, written, { conversation, format: 'md', out })).toBe(0);
    expect(readFileSync(join(dataDir, 'Photo.attachments', 'photo.png'))).toEqual(png);
    expect(readFileSync(out, 'utf8')).toContain('![photo.png](Photo.attachments/photo.png)');
    expect(written.err).toBe(`Wrote ${out} and 1 attachment in ${join(dataDir, 'Photo.attachments')}\n`);

    const onStdout = capture();
    expect(await exportCommand(core, onStdout, { conversation, format: 'md' })).toBe(0);
    expect(onStdout.err).toBe('The Markdown links 1 attachment it cannot carry on stdout: write it with --out FILE to save them beside it.\n');

    const folder = join(dataDir, 'all');
    expect(await exportCommand(core, capture(), { all: true, format: 'md', out: folder })).toBe(0);
    const [name] = readdirSync(folder).filter((entry) => entry.endsWith('.md'));
    const attachments = `${name!.slice(0, -'.md'.length)}.attachments`;
    expect(readdirSync(join(folder, attachments))).toEqual(['photo.png']);
    expect(readFileSync(join(folder, attachments, 'photo.png'))).toEqual(png);
  });
});
