/**
 * Issue 9's acceptance for long conversations: a generated 100,000-message transcript (about four million tokens)
 * imported through `anybrain import`, then `anybrain request --brain kimi`, prints a body within 80 % of Kimi's window
 * and says on stderr how many older messages are outside it. The time a request takes is not asserted here (see
 * `npm run bench`); the work is: the rows the request reads are the same for 100,000 messages as for a 1,000-message
 * conversation whose newest rows are the same, and no more than the request holds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION, type TranscriptMessage, type TranscriptV1 } from '../../src-shared/transcript';
import { openCore, type OpenedCore } from '../core/app';
import { estimateTokens } from '../core/context/token-estimate';
import type * as InvocationsModule from '../core/store/invocations';
import type * as LivePathModule from '../core/store/live-path';
import type * as MessagesModule from '../core/store/messages';
import { importCommand, requestCommand } from './commands';
import { seededRandom } from './testing';
import { capture } from './captured-output';

/** What the request read: rows with their text, invocations, and the rows the live-path walk kept. */
const reads = vi.hoisted(() => ({ rows: 0, invocationsAskedFor: 0, walkedFitting: 0 }));

vi.mock('../core/store/messages', async (importOriginal) => {
  const actual = await importOriginal<typeof MessagesModule>();
  return {
    ...actual,
    // The window guard reads the rows that fit a page at a time.
    listLiveMessagesBetween: (...args: Parameters<typeof actual.listLiveMessagesBetween>) => {
      const rows = actual.listLiveMessagesBetween(...args);
      reads.rows += rows.length;
      return rows;
    },
  };
});
vi.mock('../core/store/invocations', async (importOriginal) => {
  const actual = await importOriginal<typeof InvocationsModule>();
  return {
    ...actual,
    listInvocationsByMessage: (...args: Parameters<typeof actual.listInvocationsByMessage>) => {
      reads.invocationsAskedFor += args[1].length;
      return actual.listInvocationsByMessage(...args);
    },
  };
});
vi.mock('../core/store/live-path', async (importOriginal) => {
  const actual = await importOriginal<typeof LivePathModule>();
  return {
    ...actual,
    scanLivePath: (...args: Parameters<typeof actual.scanLivePath>) => {
      const path = actual.scanLivePath(...args);
      reads.walkedFitting += path.fitting.length;
      return path;
    },
  };
});

const MESSAGES = 100_000;
/** The newest messages, the same in both conversations: a long working session that alone overflows Kimi's window. */
const SESSION_MESSAGES = 1_000;
const KIMI_WINDOW = 262_144;

const SENTENCES = [
  'The migration ran cleanly on the staging copy, so the next step is a snapshot of production.',
  'That function returns a promise, so the caller needs to await it or the error goes unhandled.',
  'Sorting by the composite index avoids a temporary B-tree, which is where most of the time went.',
  'Remember that the lease ends on the last day of March, so the notice has to go out in January. 📅',
  'You can split the work into three steps and test each one on its own before combining them.',
  '오늘 회의는 오후 세 시로 옮겨졌어요.',
  '요약하면, 첫 번째 방법이 더 간단하고 유지보수도 쉽습니다. 👍',
  '```ts\nconst total = rows.reduce((sum, row) => sum + row.tokens, 0);\n```',
  'Sounds good.',
  'Thanks!',
  'Yes, do that.',
  'Why?',
  '좋아요.',
  'Done: the tests pass.',
  'Can you check the log?',
  'Try it again now. 🙂',
];

class TranscriptWriter {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  private between(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  /** Whole sentences up to about `length` characters, tagged with the message's index so every text is unique. */
  private prose(index: number, length: number): string {
    const parts = [`(#${index})`];
    let total = 0;
    while (total < length) {
      const sentence = SENTENCES[Math.floor(this.random() * SENTENCES.length)]!;
      parts.push(sentence);
      total += sentence.length + 1;
    }
    return parts.join(' ');
  }

  /** A user message and its reply; `session` rows are longer and call tools more often. */
  pair(index: number, session: boolean): TranscriptMessage[] {
    const turnId = `t${index}`;
    const at = new Date(Date.UTC(2026, 0, 1) + index * 30_000).toISOString();
    const userLength = session ? this.between(200, 800) : this.random() < 0.9 ? this.between(5, 40) : this.between(40, 200);
    const roll = this.random();
    const replyLength = session
      ? this.between(600, 1_600)
      : roll < 0.8
        ? this.between(5, 80)
        : roll < 0.98
          ? this.between(80, 300)
          : this.between(500, 1_000);
    const outcome = this.random();
    const status = outcome < 0.01 ? 'failed' : outcome < 0.02 ? 'stopped' : 'complete';
    const calls = status !== 'failed' && this.random() < (session ? 0.5 : 0.04) ? this.between(1, 2) : 0;
    const invocations = Array.from({ length: calls }, (_, position) => ({
      id: `i${index}-${position}`,
      kind: 'tool' as const,
      server: 'files',
      tool: 'read_file',
      provider_call_id: `functions.files__read_file:${position}`,
      input: { path: `notes/${index}-${position}.md` },
      // Tagged like the reply that made the call.
      output: this.prose(index + 1, session ? this.between(100, 1_500) : this.between(50, 800)),
      status: 'ok' as const,
    }));
    return [
      { id: `m${index}`, turn_id: turnId, role: 'user', kind: 'chat', text: this.prose(index, userLength), created_at: at, status: 'complete' },
      {
        id: `m${index + 1}`,
        turn_id: turnId,
        role: 'assistant',
        kind: 'chat',
        text: status === 'failed' ? '' : this.prose(index + 1, replyLength),
        created_at: at,
        status,
        brain: 'kimi',
        model_requested: 'kimi-k2.6',
        model_responded: 'kimi-k2.6',
        ...(calls > 0 ? { tool_invocations: invocations } : {}),
      },
    ];
  }
}

function transcriptOf(title: string, messages: readonly TranscriptMessage[]): TranscriptV1 {
  return {
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    conversation: { id: title, title, created_at: '2026-01-01T00:00:00.000Z' },
    messages: [...messages],
  };
}

const formatCount = (count: number) => count.toLocaleString('en-US');

describe(`anybrain request --brain kimi on a ${formatCount(MESSAGES)}-message conversation`, () => {
  let dataDir = '';
  let core: OpenedCore;
  let messages: TranscriptMessage[] = [];
  const conversations = { long: '', short: '' };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'anybrain-long-'));
    const writer = new TranscriptWriter(9);
    messages = [];
    for (let index = 0; index < MESSAGES; index += 2) messages.push(...writer.pair(index, index >= MESSAGES - SESSION_MESSAGES));
    const longFile = join(dataDir, 'long.json');
    const shortFile = join(dataDir, 'short.json');
    writeFileSync(longFile, JSON.stringify(transcriptOf('A year of notes', messages)));
    writeFileSync(shortFile, JSON.stringify(transcriptOf('A year of notes', messages.slice(-SESSION_MESSAGES))));
    core = openCore({ dataDir: join(dataDir, 'data'), env: {} });
    for (const [name, file] of [['long', longFile], ['short', shortFile]] as const) {
      const output = capture();
      expect(await importCommand(core, output, file)).toBe(0);
      conversations[name] = output.out.trim();
    }
  }, 180_000);

  afterAll(async () => {
    await core?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function request(conversation: string) {
    reads.rows = 0;
    reads.invocationsAskedFor = 0;
    reads.walkedFitting = 0;
    const output = capture();
    expect(await requestCommand(core, output, { conversation, brain: 'kimi' })).toBe(0);
    return { output, reads: { ...reads } };
  }

  it('prints a body within 80 % of Kimi\'s window and names on stderr the window and the messages left out', async () => {
    const { output, reads: read } = await request(conversations.long);
    const body = output.out.replace(/\n$/, '');
    expect(estimateTokens(body)).toBeLessThanOrEqual(Math.floor(KIMI_WINDOW * 0.8));

    // The request holds the newest `read.rows` messages; the older ones it leaves out are those that replay (no failed reply).
    const oldestHeld = MESSAGES - read.rows;
    const leftOut = messages.slice(0, oldestHeld).filter((message) => message.status !== 'failed').length;
    expect(leftOut).toBeGreaterThan(90_000);
    const newestLeftOut = messages.slice(0, oldestHeld).findLast((message) => message.status !== 'failed')!;
    const holds = (text: string) => body.includes(text);
    expect(holds(JSON.stringify(messages[MESSAGES - 1]!.text).slice(1, -1))).toBe(true);
    expect(holds(JSON.stringify(messages[oldestHeld]!.text).slice(1, -1))).toBe(true);
    expect(holds(`(#${newestLeftOut.id.slice(1)})`)).toBe(false);
    expect(holds(`\\nOlder messages of this conversation are outside Kimi's window and not shown here."`)).toBe(true);

    const [windowLine, outsideLine, ...rest] = output.err.split('\n');
    expect(windowLine).toMatch(
      /^Window: Kimi \(kimi-k2\.6\) holds 262,144 tokens \(from the catalogue\)\. The conversation is about [\d,]+ tokens, [\d,]+ % of Kimi's window; this request holds about [\d,]+ \(\d+ %\)\.$/,
    );
    // The conversation is about four million tokens, all counted though most are outside the window.
    const conversationTokens = Number(/about ([\d,]+) tokens/.exec(windowLine!)![1]!.replaceAll(',', ''));
    expect(conversationTokens).toBeGreaterThan(3_500_000);
    expect(conversationTokens).toBeLessThan(5_000_000);
    // The request itself stays below the emergency line.
    expect(Number(/\((\d+) %\)\.$/.exec(windowLine!)![1])).toBeLessThanOrEqual(80);
    expect(outsideLine).toBe(
      `${formatCount(leftOut)} older messages are outside Kimi's window and left out; \`anybrain compact --conversation ${conversations.long} --brain kimi\` summarises them.`,
    );
    // Calls to a files server that is not connected now replay as labelled text, and say so.
    expect(rest.at(-1)).toBe('');
    for (const line of rest.slice(0, -1)) expect(line).toMatch(/^Note: (1 call to tools not offered now replays|2 calls to tools not offered now replay) as text\.$/);
  }, 60_000);

  it('reads the same rows as for a 1,000-message conversation with the same newest rows, and only the rows it holds', async () => {
    const long = await request(conversations.long);
    const short = await request(conversations.short);
    // One preview, one walk, one read of the rows that fit, and their invocations asked for once.
    expect(long.reads.rows).toBeGreaterThan(100);
    expect(long.reads).toEqual(short.reads);
    expect(long.reads.rows).toBeLessThan(SESSION_MESSAGES);
    // The rows read are the rows the walk kept, and the rows between them its walk skipped (failed replies).
    const held = messages.slice(MESSAGES - long.reads.rows);
    expect(long.reads.walkedFitting).toBe(held.filter((message) => message.status !== 'failed').length);
    expect(long.reads.invocationsAskedFor).toBe(held.filter((message) => message.role === 'assistant').length);
    // The two bodies differ only in the conversation they name and in the count of messages left out.
    const withoutNames = (body: string, conversation: string) =>
      body.replaceAll(conversation, 'ID').replace(/\d+ older messages of this conversation/, 'N older messages of this conversation');
    expect(withoutNames(long.output.out, conversations.long)).toBe(withoutNames(short.output.out, conversations.short));
  }, 60_000);
});
