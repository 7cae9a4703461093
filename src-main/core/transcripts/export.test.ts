import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { insertConversation } from '../store/conversations';
import { insertInvocation } from '../store/invocations';
import { INTERRUPTED_ERROR, insertMessage, type NewMessage } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';
import { foldIntoSummary } from '../store/compaction';
import { recordRequestUsage } from '../store/request-usage';
import { buildTranscript, exportConversation, TurnNotFoundError } from './export';
import { seedBranchedConversation } from './export-testing';
import { importTranscript } from './import';

const HOSTILE = '<img src=x onerror="alert(1)">\'&';
const ESCAPED = '&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#39;&#38;';
const HOSTILE_AT = '2026-01-01T00:00:00.000Z';

function hostileTranscript(): TranscriptV1 {
  return {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'c', title: `</title><script>alert(0)</script>${HOSTILE}`, created_at: '2026-01-01T00:00:00.000Z' },
    messages: [
      { id: 'u', turn_id: 't1', role: 'user', kind: 'chat', text: `<script>alert(2)</script>\n${HOSTILE}`, created_at: HOSTILE_AT },
      {
        id: 'a',
        turn_id: 't1',
        role: 'assistant',
        kind: 'chat',
        text: `[x](javascript:alert(3)) ${HOSTILE}`,
        status: 'stopped',
        created_at: HOSTILE_AT,
        brain: 'kimi',
        model_requested: 'kimi-k2.6',
        model_responded: `</h2><svg onload=alert(4)>${HOSTILE}`,
        tool_invocations: [
          { id: 'i', kind: 'tool', server: `<b>${HOSTILE}`, tool: 'read_file', input: { path: HOSTILE }, output: HOSTILE, status: 'ok' },
        ],
      },
      { id: 's', turn_id: 't2', role: 'system', kind: 'notice', text: `</p><style>*{background:url(https://attacker.example/)}</style>${HOSTILE}`, created_at: HOSTILE_AT },
    ],
  };
}

describe('the HTML export', () => {
  it('escapes the title, the user words, names and call text, sanitises the reply, under a CSP that allows no script, fetch, base or form, and images only from data: URLs', () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(db, JSON.stringify(hostileTranscript()));
    const { content } = exportConversation(db, conversationId, 'html');
    expect(content).toContain(
      '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src data:; style-src \'unsafe-inline\'; base-uri \'none\'; form-action \'none\'">',
    );
    expect(content).toContain(`<title>&#60;/title&#62;&#60;script&#62;alert(0)&#60;/script&#62;${ESCAPED}</title>`);
    // The import dates the conversation itself when the file is read.
    const body = content.slice(content.indexOf('<body>')).replace(/Started \d{4}-\d\d-\d\d \d\d:\d\d UTC/, 'Started 2026-01-01 00:00 UTC');
    const time = '<span class="time">2026-01-01 00:00 UTC</span>';
    expect(body).toBe(
      [
        '<body><main>',
        `<header><h1>&#60;/title&#62;&#60;script&#62;alert(0)&#60;/script&#62;${ESCAPED}</h1><p class="started">Started 2026-01-01 00:00 UTC</p></header>`,
        `<article class="message user"><h2 class="speaker">You ${time}</h2><div class="plain">&#60;script&#62;alert(2)&#60;/script&#62;\n${ESCAPED}</div></article>`,
        `<article class="message assistant status-stopped"><h2 class="speaker">Kimi <span class="model">&#60;/h2&#62;&#60;svg onload=alert(4)&#62;${ESCAPED} (asked for kimi-k2.6)</span> ${time}</h2>`,
        '<p class="status stopped">Stopped by the user; the text below is what was shown.</p>',
        // The reply is Markdown: its raw HTML shows as the characters typed and its javascript: link as words, as in the window.
        `<div class="markdown"><p><span class="md-unlinked">x</span> &#x3C;img src=x onerror="alert(1)">'&#x26;</p></div>`,
        `<div class="receipt"><span class="receipt-summary">1 tool</span><span class="chip ok">&#60;b&#62;${ESCAPED} · read_file</span></div>`,
        `<details class="call"><summary>Tool call: <strong>&#60;b&#62;${ESCAPED} · read_file</strong></summary>` +
          `<p class="call-part">Input</p><pre><code class="language-json">{&#34;path&#34;:&#34;&#60;img src=x onerror=\\&#34;alert(1)\\&#34;&#62;&#39;&#38;&#34;}</code></pre>` +
          `<p class="call-part">Output</p><pre><code class="language-text">${ESCAPED}</code></pre></details></article>`,
        `<aside class="system notice"><p class="system-label">System notice ${time}</p><div class="plain">&#60;/p&#62;&#60;style&#62;*{background:url(https://attacker.example/)}&#60;/style&#62;${ESCAPED}</div></aside>`,
        '</main></body></html>',
        '',
      ].join('\n'),
    );
  });

  it('renders a reply as Markdown: headings, tables, lists, highlighted code, safe links and images as their description', () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(
      db,
      JSON.stringify({
        ...hostileTranscript(),
        messages: [
          {
            id: 'a', turn_id: 't', role: 'assistant', kind: 'chat', status: 'complete', brain: 'claude', created_at: HOSTILE_AT,
            text: '# Plan\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n- one\n\n```js\nconst quote = "\\"";\n```\n\n[docs](https://example.com/docs) ![chart](https://attacker.example/x.png)',
          },
        ],
      }),
    );
    const { content } = exportConversation(db, conversationId, 'html');
    const reply = content.slice(content.indexOf('<div class="markdown">'), content.indexOf('</article>'));
    expect(reply).toBe(
      [
        '<div class="markdown"><h1>Plan</h1>',
        '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>',
        '<ul>\n<li>one</li>\n</ul>',
        '<pre><code class="hljs language-js"><span class="hljs-keyword">const</span> quote = <span class="hljs-string">"\\""</span>;\n</code></pre>',
        '<p><a href="https://example.com/docs" rel="noopener noreferrer" target="_blank" title="https://example.com/docs">docs</a> <span class="md-image-alt">[image: chart]</span></p></div>',
      ].join('\n'),
    );
  });
});

describe('export options', () => {
  it('exports only the chosen turns, in conversation order, in every format, and names turns the conversation lacks', () => {
    const db = openTestDatabase();
    const conversationId = seedEveryKindOfRow(db);
    const json = JSON.parse(exportConversation(db, conversationId, 'json', { turnIds: ['t2', 't0'] }).content) as TranscriptV1;
    expect(json.messages.map((message) => message.id)).toEqual(['m0', 'm1', 'm4', 'm5']);
    const markdown = exportConversation(db, conversationId, 'md', { turnIds: ['t2'] }).content;
    expect(markdown).toContain('Once more.');
    expect(markdown).not.toContain('Read the notes.');
    const html = exportConversation(db, conversationId, 'html', { turnIds: ['t1'] }).content;
    expect(html).toContain('Failed: The request is too large for gpt-5.5.');
    expect(html).not.toContain('Once more.');
    expect(() => exportConversation(db, conversationId, 'md', { turnIds: ['t0', 'nope'] })).toThrow(TurnNotFoundError);
  });

  it('keeps a chosen summary importable when the rows it covers were not chosen', () => {
    const db = openTestDatabase();
    const conversationId = seedEveryKindOfRow(db);
    const covered = JSON.parse(exportConversation(db, conversationId, 'json', { turnIds: ['t0', 't3'] }).content) as TranscriptV1;
    expect(covered.messages.find((message) => message.kind === 'summary')?.covers_through_id).toBe('m1');
    const alone = exportConversation(db, conversationId, 'json', { turnIds: ['t3'] }).content;
    expect((JSON.parse(alone) as TranscriptV1).messages.find((message) => message.kind === 'summary')).not.toHaveProperty('covers_through_id');
    expect(importTranscript(db, alone)).toEqual(expect.any(String));
  });

  it('shows calls by default and reasoning only when asked, in Markdown and HTML', () => {
    const db = openTestDatabase();
    const conversationId = seedEveryKindOfRow(db);
    for (const format of ['md', 'html'] as const) {
      const plain = exportConversation(db, conversationId, format).content;
      expect(plain).toContain('read_file');
      expect(plain).not.toContain('Which file?');
      const full = exportConversation(db, conversationId, format, { includeReasoning: true }).content;
      expect(full).toContain('Which file?');
      expect(exportConversation(db, conversationId, format, { includeTools: false }).content).not.toContain('read_file');
    }
  });
});

const AT = '2026-12-01T12:00:00.000Z';
const ANTHROPIC_THINKING = { type: 'thinking', thinking: 'Which file?', signature: 'EqQBCkYIBxgCKkA=' };
const RESPONSES_REASONING = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAABo' };

/** Every kind of row the app writes: reasoning and calls with their carriers, a failed, an interrupted and a summary. */
function seedEveryKindOfRow(db: AppDatabase): string {
  insertConversation(db, { id: 'c', title: 'Every row', brain: 'claude', model: 'claude-opus-4-7', now: AT });
  const message = (seq: number, fields: Partial<NewMessage> & Pick<NewMessage, 'role' | 'text'>) =>
    insertMessage(db, { id: `m${seq}`, conversationId: 'c', seq, turnId: `t${Math.floor(seq / 2)}`, status: 'complete', createdAt: AT, ...fields });
  message(0, { role: 'user', text: 'Read the notes.' });
  message(1, {
    role: 'assistant', text: 'Done.', brain: 'claude', modelRequested: 'claude-opus-4-7', modelResponded: 'claude-opus-4-7', reasoningLevel: 'high',
    reasoning: { brain: 'claude', model: 'claude-opus-4-7', text: 'Which file?', opaque: { blocks: [ANTHROPIC_THINKING] } },
  });
  const invocation = (seq: number, kind: 'tool' | 'memory' | 'skill', opaque: unknown) =>
    insertInvocation(db, {
      id: `i${seq}`, turnId: 't0', messageId: 'm1', seq, kind, server: kind === 'tool' ? 'files' : null, tool: kind === 'tool' ? 'read_file' : kind,
      providerCallId: kind === 'memory' ? null : `call_${seq}`, input: { path: 'notes.md' }, output: 'notes', status: 'ok', opaque, startedAt: AT, endedAt: AT,
      images: kind === 'tool' ? [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] : null,
    });
  invocation(0, 'memory', null);
  invocation(1, 'tool', { thoughtSignature: 'Q2FsbA==' });
  invocation(2, 'skill', null);
  message(2, { role: 'user', text: 'Again.' });
  message(3, {
    role: 'assistant', text: '', status: 'failed', brain: 'codex', modelRequested: 'gpt-5.5',
    error: { code: 'context-too-large', message: 'The request is too large for gpt-5.5.', retryable: false, status: 400, limitTokens: 400_000, requestTokens: 512_000 },
  });
  message(4, { role: 'user', text: 'Once more.' });
  message(5, {
    role: 'assistant', text: 'Part', status: 'interrupted', brain: 'codex', modelRequested: 'gpt-5.5', error: INTERRUPTED_ERROR,
    reasoning: { brain: 'codex', model: 'gpt-5.5', text: '', opaque: { blocks: [RESPONSES_REASONING], positions: [0] } },
  });
  message(6, { role: 'system', kind: 'notice', text: 'Switched brain.' });
  message(7, { role: 'system', kind: 'summary', text: 'They read the notes.', coversThroughId: 'm1' });
  // The first reply's two tool rounds; the interrupted reply's one request, whose price the list did not know.
  const usage = (turnId: string, round: number, input: number, cached: number, costUsd: number | null) =>
    recordRequestUsage(db, { conversationId: 'c', turnId, purpose: 'reply', round, brain: 'claude', model: 'claude-opus-4-7', usage: { inputTokens: input, cacheReadTokens: cached, outputTokens: 20 }, costUsd, now: AT });
  usage('t0', 0, 100, 0, 0.0021);
  usage('t0', 1, 40, 900, 0.00065);
  usage('t2', 0, 300, 0, null);
  return 'c';
}

describe('the JSON export', () => {
  it("carries each call's and each reasoning's opaque carriers verbatim, a call's images, and each reply's error", () => {
    const db = openTestDatabase();
    const messages = buildTranscript(db, seedEveryKindOfRow(db)).messages;
    expect(messages[1]?.reasoning?.opaque).toEqual({ blocks: [ANTHROPIC_THINKING] });
    expect(messages[1]?.tool_invocations?.map((invocation) => invocation.opaque)).toEqual([undefined, { thoughtSignature: 'Q2FsbA==' }, undefined]);
    expect(messages[1]?.tool_invocations?.map((invocation) => invocation.images)).toEqual([undefined, [{ mime_type: 'image/png', data: 'iVBORw0KGgo=' }], undefined]);
    expect(messages[1]).not.toHaveProperty('error');
    // Anthropic's input counted apart from its cache reads: the transcript's input holds both, as on every wire.
    expect(messages[1]?.usage).toEqual({
      requests: 2, input_tokens: 1_040, cache_read_tokens: 900, cache_write_tokens: 0, output_tokens: 40, reasoning_tokens: 0, cost_usd: 0.00275,
    });
    expect(messages[3]).not.toHaveProperty('usage');
    expect(messages[5]?.usage).toMatchObject({ requests: 1, input_tokens: 300, cost_usd: null });
    expect(messages.filter((message) => message.role !== 'assistant').some((message) => 'usage' in message)).toBe(false);
    expect(messages[3]?.error).toEqual({
      code: 'context-too-large', message: 'The request is too large for gpt-5.5.', retryable: false, status: 400, limit_tokens: 400_000, request_tokens: 512_000,
    });
    expect(messages[5]).toMatchObject({
      status: 'interrupted',
      error: { code: 'interrupted', message: INTERRUPTED_ERROR.message, retryable: true },
      reasoning: { opaque: { blocks: [RESPONSES_REASONING], positions: [0] } },
    });
  });

  it('validates against the shipped JSON Schema of transcript v1', () => {
    const schema = JSON.parse(readFileSync(new URL('../../../src-shared/transcript-v1.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const db = openTestDatabase();
    const exports = [seedEveryKindOfRow(db), importTranscript(db, JSON.stringify(hostileTranscript())), seedBranchedConversation(db)].map(
      (conversationId) => JSON.parse(exportConversation(db, conversationId, 'json').content) as unknown,
    );
    for (const exported of exports) {
      validate(exported);
      expect(validate.errors ?? []).toEqual([]);
    }
    const broken = exports[0] as TranscriptV1;
    validate({ ...broken, messages: broken.messages.map((message, index) => (index === 1 ? { ...message, tool_invocations: [{ ...message.tool_invocations![1], opaque: 'Q2FsbA==' }] } : message)) });
    expect(validate.errors?.map((error) => error.instancePath)).toContain('/messages/1/tool_invocations/0/opaque');
  });
});

describe('branches in exports', () => {
  const AT_TEXT = '2026-12-01 12:00 UTC';
  const kimiReply = [
    `## Kimi · kimi-k2.6 · ${AT_TEXT}`,
    '',
    '#### Tool call: files · read_file',
    '',
    '```json',
    '{"path":"notes.md"}',
    '```',
    '',
    '```text',
    'Quicksort partitions in place.',
    '```',
    '',
    'Locality.',
  ];

  it('gives every message of every branch its parent_id in JSON, and the conversation its current_leaf_id', () => {
    const db = openTestDatabase();
    const transcript = buildTranscript(db, seedBranchedConversation(db));
    expect(transcript.messages.map((message) => [message.id, message.parent_id])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
      ['u2', 'a1'],
      ['a2', 'u2'],
      ['u2-edit', 'a1'],
      ['a3-kimi', 'u2-edit'],
      ['a3-gemini', 'u2-edit'],
    ]);
    expect(transcript.conversation.current_leaf_id).toBe('a3-kimi');
  });

  it('links chosen turns to the nearest chosen message above, the leaf too, and a summary to nothing', () => {
    const db = openTestDatabase();
    const conversationId = seedBranchedConversation(db);
    insertMessage(db, { id: 's', conversationId, seq: 7, turnId: 'ts', role: 'system', kind: 'summary', text: 'Sorting.', status: 'complete', coversThroughId: 'a1', createdAt: AT });
    foldIntoSummary(db, conversationId, 's', 'a1');
    const chosen = buildTranscript(db, conversationId, ['t1', 't4', 'ts']);
    expect(chosen.messages.map((message) => [message.id, message.parent_id])).toEqual([['u1', null], ['a1', 'u1'], ['a3-kimi', 'a1'], ['s', null]]);
    expect(chosen.conversation.current_leaf_id).toBe('a3-kimi');
    expect(buildTranscript(db, conversationId, ['t2']).conversation.current_leaf_id).toBeNull();
  });

  it('writes the live path in Markdown by default, the way the window shows it', () => {
    const db = openTestDatabase();
    expect(exportConversation(db, seedBranchedConversation(db), 'md').content).toBe(
      [
        '# Branches', '', `Started ${AT_TEXT}.`, '', '---', '',
        `## You · ${AT_TEXT}`, '', 'Which sort is faster?', '', '---', '',
        `## Claude · claude-opus-4-7 · ${AT_TEXT}`, '', 'Quicksort, usually.', '', '---', '',
        `## You · ${AT_TEXT}`, '', 'Why, in one line?', '', '---', '',
        ...kimiReply, '',
      ].join('\n'),
    );
  });

  it('writes every branch in Markdown with branches: all, numbered, each alternative labelled with the message it follows', () => {
    const db = openTestDatabase();
    expect(exportConversation(db, seedBranchedConversation(db), 'md', { branches: 'all' }).content).toBe(
      [
        '# Branches', '', `Started ${AT_TEXT}.`, '', '---', '',
        `## 1 · You · ${AT_TEXT}`, '', 'Which sort is faster?', '', '---', '',
        `## 2 · Claude · claude-opus-4-7 · ${AT_TEXT}`, '', 'Quicksort, usually.', '', '---', '',
        '*Alternative 1 of 2 after message 2.*', '',
        `## 3 · You · ${AT_TEXT}`, '', 'Why?', '', '---', '',
        `## 4 · Claude · claude-opus-4-7 · ${AT_TEXT}`, '', 'Fewer cache misses.', '', '---', '',
        '*Alternative 2 of 2 after message 2 (current branch).*', '',
        `## 5 · You · ${AT_TEXT}`, '', 'Why, in one line?', '', '---', '',
        '*Alternative 1 of 2 after message 5 (current branch).*', '',
        kimiReply[0]!.replace('## ', '## 6 · '), ...kimiReply.slice(1), '', '---', '',
        '*Alternative 2 of 2 after message 5.*', '',
        `## 7 · Gemini · gemini-3.1-pro-preview · ${AT_TEXT}`, '', 'It stays in cache.', '',
      ].join('\n'),
    );
  });

  it('shows a summary of the live path in Markdown where it was written, and after the last message it covers with every branch', () => {
    const db = openTestDatabase();
    const conversationId = seedBranchedConversation(db);
    insertMessage(db, { id: 's', conversationId, seq: 7, turnId: 'ts', role: 'system', kind: 'summary', text: 'Sorting.', status: 'complete', coversThroughId: 'a1', createdAt: AT });
    foldIntoSummary(db, conversationId, 's', 'a1');
    const headings = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('## ') || line.startsWith('*Alternative'));
    expect(headings(exportConversation(db, conversationId, 'md').content)).toEqual([
      `## You · ${AT_TEXT}`,
      `## Claude · claude-opus-4-7 · ${AT_TEXT}`,
      `## You · ${AT_TEXT}`,
      `## Kimi · kimi-k2.6 · ${AT_TEXT}`,
      `## Summary of earlier messages · ${AT_TEXT}`,
    ]);
    expect(headings(exportConversation(db, conversationId, 'md', { branches: 'all', includeTools: false }).content)).toEqual([
      `## 1 · You · ${AT_TEXT}`,
      `## 2 · Claude · claude-opus-4-7 · ${AT_TEXT}`,
      `## 3 · Summary of earlier messages · ${AT_TEXT}`,
      '*Alternative 1 of 2 after message 2.*',
      `## 4 · You · ${AT_TEXT}`,
      `## 5 · Claude · claude-opus-4-7 · ${AT_TEXT}`,
      '*Alternative 2 of 2 after message 2 (current branch).*',
      `## 6 · You · ${AT_TEXT}`,
      '*Alternative 1 of 2 after message 6 (current branch).*',
      `## 7 · Kimi · kimi-k2.6 · ${AT_TEXT}`,
      '*Alternative 2 of 2 after message 6.*',
      `## 8 · Gemini · gemini-3.1-pro-preview · ${AT_TEXT}`,
    ]);
  });

  it('writes every branch in HTML as nested labelled sections linking the message they follow, and the live path by default', () => {
    const db = openTestDatabase();
    const conversationId = seedBranchedConversation(db);
    const all = exportConversation(db, conversationId, 'html', { branches: 'all', includeTools: false }).content;
    const time = `<span class="time">${AT_TEXT}</span>`;
    const speaker = (number: number, name: string, model?: string) =>
      `<h2 class="speaker"><span class="number">${number}</span> ${name}${model === undefined ? '' : ` <span class="model">${model}</span>`} ${time}</h2>`;
    const user = (number: number, text: string) => `<article class="message user" id="message-${number}">${speaker(number, 'You')}<div class="plain">${text}</div></article>`;
    const reply = (number: number, name: string, model: string, text: string) =>
      `<article class="message assistant status-complete" id="message-${number}">${speaker(number, name, model)}\n<div class="markdown"><p>${text}</p></div></article>`;
    expect(all.slice(all.indexOf('<article'), all.indexOf('</main>'))).toBe(
      [
        user(1, 'Which sort is faster?'),
        reply(2, 'Claude', 'claude-opus-4-7', 'Quicksort, usually.'),
        '<section class="alternative"><p class="alternative-label">Alternative 1 of 2 after <a href="#message-2">message 2</a></p>',
        user(3, 'Why?'),
        reply(4, 'Claude', 'claude-opus-4-7', 'Fewer cache misses.'),
        '</section>',
        '<section class="alternative current"><p class="alternative-label">Alternative 2 of 2 after <a href="#message-2">message 2</a> (current branch)</p>',
        user(5, 'Why, in one line?'),
        '<section class="alternative current"><p class="alternative-label">Alternative 1 of 2 after <a href="#message-5">message 5</a> (current branch)</p>',
        reply(6, 'Kimi', 'kimi-k2.6', 'Locality.'),
        '</section>',
        '<section class="alternative"><p class="alternative-label">Alternative 2 of 2 after <a href="#message-5">message 5</a></p>',
        reply(7, 'Gemini', 'gemini-3.1-pro-preview', 'It stays in cache.'),
        '</section>',
        '</section>',
        '',
      ].join('\n'),
    );
    const live = exportConversation(db, conversationId, 'html').content;
    expect([live.includes('Why, in one line?'), live.includes('Locality.'), live.includes('Why?'), live.includes('It stays in cache.'), live.includes('class="alternative"')]).toEqual([
      true, true, false, false, false,
    ]);
  });

  it('keeps chosen turns with every branch: only those turns, still laid out as branches', () => {
    const db = openTestDatabase();
    const conversationId = seedBranchedConversation(db);
    const markdown = exportConversation(db, conversationId, 'md', { branches: 'all', turnIds: ['t1', 't4', 't5'], includeTools: false }).content;
    expect(markdown.split('\n').filter((line) => line.startsWith('## ') || line.startsWith('*Alternative'))).toEqual([
      `## 1 · You · ${AT_TEXT}`,
      `## 2 · Claude · claude-opus-4-7 · ${AT_TEXT}`,
      '*Alternative 1 of 2 after message 2 (current branch).*',
      `## 3 · Kimi · kimi-k2.6 · ${AT_TEXT}`,
      '*Alternative 2 of 2 after message 2.*',
      `## 4 · Gemini · gemini-3.1-pro-preview · ${AT_TEXT}`,
    ]);
    expect(exportConversation(db, conversationId, 'md', { turnIds: ['t1', 't4', 't5'], includeTools: false }).content).not.toContain('Gemini');
  });
});
