import { describe, expect, it } from 'vitest';
import type { TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import { closeOpenFence, cutCallText, fenced, markdownOf, plainTextAsMarkdown } from './export-markdown';

const AT = '2026-12-01T12:00:00.000Z';
const DEFAULTS = { includeTools: true, includeReasoning: false, branches: 'live' } as const;

function transcriptOf(messages: TranscriptMessage[], title = 'Notes'): TranscriptV1 {
  return { format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title, created_at: AT }, messages };
}

function reply(fields: Partial<TranscriptMessage>): TranscriptMessage {
  return {
    id: 'a', turn_id: 't', role: 'assistant', kind: 'chat', text: 'Done.', status: 'complete', brain: 'claude',
    model_requested: 'claude-opus-4-7', model_responded: 'claude-opus-4-7', created_at: AT, ...fields,
  };
}

describe('the Markdown export', () => {
  it('writes a reply with a tool call as a heading line, its input as json and its output fenced past every backtick run inside', () => {
    const markdown = markdownOf(
      transcriptOf([
        { id: 'u', turn_id: 't', role: 'user', kind: 'chat', text: 'Read the notes.', created_at: AT },
        reply({
          tool_invocations: [
            { id: 'i1', kind: 'tool', server: 'files', tool: 'read_file', input: { path: 'notes.md' }, output: 'a ``` fence\n````', status: 'ok' },
            { id: 'i2', kind: 'memory', server: null, tool: 'memory_search', input: {}, output: null, status: 'error' },
          ],
        }),
      ]),
      DEFAULTS,
    );
    expect(markdown).toBe(
      [
        '# Notes',
        '',
        'Started 2026-12-01 12:00 UTC.',
        '',
        '---',
        '',
        '## You · 2026-12-01 12:00 UTC',
        '',
        'Read the notes.',
        '',
        '---',
        '',
        '## Claude · claude-opus-4-7 · 2026-12-01 12:00 UTC',
        '',
        '#### Tool call: files · read_file',
        '',
        '```json',
        '{"path":"notes.md"}',
        '```',
        '',
        '`````text',
        'a ``` fence',
        '````',
        '`````',
        '',
        '#### Memory: memory_search (error)',
        '',
        '*No output.*',
        '',
        'Done.',
        '',
      ].join('\n'),
    );
    expect(markdownOf(transcriptOf([reply({ tool_invocations: [{ id: 'i', kind: 'tool', tool: 'x', status: 'ok' }] })]), { ...DEFAULTS, includeTools: false })).not.toContain('Tool call');
  });

  it('writes reasoning, when asked for, as a labelled quote ahead of the words', () => {
    const transcript = transcriptOf([reply({ reasoning: { brain: 'claude', model: 'claude-opus-4-7', text: 'Which file?\n\n```\nls\n```', opaque: {} } })]);
    expect(markdownOf(transcript, { ...DEFAULTS, includeReasoning: true }).split('---\n\n')[1]).toBe(
      ['## Claude · claude-opus-4-7 · 2026-12-01 12:00 UTC', '', '> **Reasoning**', '>', '> Which file?', '>', '> ```', '> ls', '> ```', '', 'Done.', ''].join('\n'),
    );
    expect(markdownOf(transcript, DEFAULTS)).not.toContain('Which file?');
  });

  it('states a failed reply with its error, a declined, stopped and interrupted one, and a model other than the one asked for', () => {
    const sections = markdownOf(
      transcriptOf([
        reply({ text: '', status: 'failed', model_responded: null, error: { code: 'provider-error', message: 'The provider answered 500: <timeout>.', retryable: true } }),
        reply({ text: '', status: 'failed', error: { code: 'refusal', message: 'Claude declined to answer.', retryable: false } }),
        reply({ text: 'Part', status: 'stopped', brain: 'kimi', model_requested: 'kimi-k2.6', model_responded: 'kimi-k2.5' }),
        reply({ text: 'Par', status: 'interrupted', error: { code: 'interrupted', message: 'Anybrain closed.', retryable: true } }),
      ]),
      DEFAULTS,
    ).split('\n\n---\n\n');
    expect(sections.slice(1)).toEqual([
      '## Claude · claude-opus-4-7 · 2026-12-01 12:00 UTC\n\n**Failed: The provider answered 500: \\<timeout\\>.**',
      '## Claude · claude-opus-4-7 · 2026-12-01 12:00 UTC\n\n**Declined: Claude declined to answer.**',
      '## Kimi · kimi-k2.5 (asked for kimi-k2.6) · 2026-12-01 12:00 UTC\n\n**Stopped by the user; the text below is what was shown.**\n\nPart',
      '## Claude · claude-opus-4-7 · 2026-12-01 12:00 UTC\n\n**Interrupted: Anybrain closed.**\n\nPar\n',
    ]);
  });

  it('labels notices and summaries as system lines, neither speaker', () => {
    const sections = markdownOf(
      transcriptOf([
        { id: 'n', turn_id: 'n', role: 'system', kind: 'notice', text: 'Switched to *Kimi*.', created_at: AT },
        { id: 's', turn_id: 's', role: 'system', kind: 'summary', text: 'They read **notes.md**.', created_at: AT },
      ]),
      DEFAULTS,
    ).split('\n\n---\n\n');
    expect(sections.slice(1)).toEqual([
      '## System notice · 2026-12-01 12:00 UTC\n\n> Switched to \\*Kimi\\*.',
      '## Summary of earlier messages · 2026-12-01 12:00 UTC\n\n> They read **notes.md**.\n',
    ]);
  });

  it('escapes a title, brain and model so they show as typed', () => {
    const markdown = markdownOf(transcriptOf([reply({ model_responded: '<b>x</b>_`y`' })], '# A `title` [x](y) #'), DEFAULTS);
    expect(markdown.split('\n')[0]).toBe('# \\# A \\`title\\` \\[x\\](y) \\#');
    expect(markdown).toContain('## Claude · \\<b\\>x\\</b\\>\\_\\`y\\` (asked for claude-opus-4-7) · 2026-12-01 12:00 UTC');
  });
});

describe('the Markdown export of every branch', () => {
  const user = (id: string, fields: Partial<TranscriptMessage> = {}): TranscriptMessage => ({ id, turn_id: id, role: 'user', kind: 'chat', text: id, created_at: AT, ...fields });

  it('labels alternatives that begin the conversation, the current one marked; a transcript of one path reads as the live export', () => {
    const transcript = {
      ...transcriptOf([user('first', { parent_id: null }), reply({ parent_id: 'first' }), user('edited', { parent_id: null })]),
      conversation: { id: 'c', title: 'Notes', created_at: AT, current_leaf_id: 'edited' },
    };
    expect(markdownOf(transcript, { ...DEFAULTS, branches: 'all' }).split('\n\n---\n\n').slice(1)).toEqual([
      '*Alternative 1 of 2 at the start.*\n\n## 1 · You · 2026-12-01 12:00 UTC\n\nfirst',
      '## 2 · Claude · claude-opus-4-7 · 2026-12-01 12:00 UTC\n\nDone.',
      '*Alternative 2 of 2 at the start (current branch).*\n\n## 3 · You · 2026-12-01 12:00 UTC\n\nedited\n',
    ]);
    // Without parent_id each message follows the one before it: no alternatives, no numbers.
    const onePath = transcriptOf([user('q'), reply({}), { id: 'n', turn_id: 'n', role: 'system', kind: 'notice', text: 'Switched.', created_at: AT }, user('again')]);
    expect(markdownOf(onePath, { ...DEFAULTS, branches: 'all' })).toBe(markdownOf(onePath, DEFAULTS));
  });
});

describe('plainTextAsMarkdown', () => {
  it('keeps the characters typed and the line breaks, and opens no construct', () => {
    expect(plainTextAsMarkdown('# hash\n## Step 2\n- dash\n12. twelve\n    <b>x</b> & a_b *c*\n\n\n> quote\n+ plus')).toBe(
      '\\# hash\\\n\\## Step 2\\\n\\- dash\\\n12\\. twelve\\\n\\<b\\>x\\</b\\> \\& a_b \\*c\\*\n\n\\> quote\\\n\\+ plus',
    );
  });
});

describe('fences and cuts', () => {
  it('picks a fence longer than any backtick run, and closes a fence a reply left open', () => {
    expect(fenced('plain', 'text')).toBe('```text\nplain\n```');
    expect(fenced('``x`` and ``````', 'json')).toBe('```````json\n``x`` and ``````\n```````');
    expect(closeOpenFence('Look:\n\n````js\nconst a = 1;')).toBe('Look:\n\n````js\nconst a = 1;\n````');
    expect(closeOpenFence('```\nclosed\n```')).toBe('```\nclosed\n```');
  });

  it('cuts long call text at a line break near the limit and never inside a surrogate pair', () => {
    expect(cutCallText('short')).toBeNull();
    expect(cutCallText(`${'a'.repeat(9)}\n${'b'.repeat(5)}`, 12)).toEqual({ shown: 'a'.repeat(9), total: 15 });
    expect(cutCallText(`${'a'.repeat(9)}🎉bbb`, 10)).toEqual({ shown: 'a'.repeat(9), total: 14 });
  });
});

describe('attachments in the Markdown export', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const attached = transcriptOf(
    [
      {
        id: 'u', turn_id: 't', role: 'user', kind: 'chat', text: 'What is in these?', created_at: AT,
        attachments: [
          { name: 'photo [1].png', media_type: 'image/png', size: 70, sha256: 'a'.repeat(64), data_base64: PNG },
          { name: 'report.pdf', media_type: 'application/pdf', size: 12_345, sha256: 'b'.repeat(64), data_base64: 'JVBERi0=' },
          { name: 'notes.txt', media_type: 'text/plain', size: 5, sha256: 'c'.repeat(64) },
        ],
      },
      reply({ text: 'A cat, a report, and notes.' }),
    ],
    'Three files',
  );

  it('shows an image written beside it as an image, links another file with what it is, and names one it does not carry', () => {
    const placement = { folder: 'Three-files.attachments', fileNames: new Map([[`${'a'.repeat(64)}/photo [1].png`, 'photo [1].png'], [`${'b'.repeat(64)}/report.pdf`, 'report.pdf']]) };
    const markdown = markdownOf(attached, { ...DEFAULTS, attachmentPlacement: placement });
    expect(markdown.split('\n---\n')[1]).toBe(
      [
        '',
        '## You · 2026-12-01 12:00 UTC',
        '',
        'What is in these?',
        '',
        '![photo \\[1\\].png](Three-files.attachments/photo%20%5B1%5D.png)',
        '',
        'Attached: [report.pdf](Three-files.attachments/report.pdf) (application/pdf, 12,345 bytes)',
        '',
        '*Attached: notes.txt (text/plain, 5 bytes), not included in this export.*',
        '',
      ].join('\n'),
    );
  });

  it('names every attachment with a note when it writes none', () => {
    const markdown = markdownOf(attached, DEFAULTS);
    expect(markdown).toContain('*Attached: photo \\[1\\].png (image/png, 70 bytes), not included in this export.*');
    expect(markdown).toContain('*Attached: report.pdf (application/pdf, 12,345 bytes), not included in this export.*');
    expect(markdown).not.toContain('](');
  });
});
