/**
 * A seeded corpus of conversations whose words make exports hard: code fences holding `\"`, headings that look like
 * speakers or banners, HTML in the user's words, Hangul, emoji, replies with twenty calls, tool outputs holding
 * backtick fences, every reply status, reasoning, notices and summaries. Written into a real database through the
 * store's own functions. Test support: only tests import `testing/`.
 */
import type { BrainId } from '../../../../src-shared/brains';
import { createRandom, type Random } from '../../providers/testing/stream-fuzzing';
import { insertConversation } from '../../store/conversations';
import { insertInvocation } from '../../store/invocations';
import { INTERRUPTED_ERROR, insertMessage } from '../../store/messages';
import type { AppDatabase } from '../../store/open';

export const CORPUS_SEED = 11;

/** What the user types: plain text in the window, so HTML and Markdown in it are characters, not markup. */
const USER_TEXTS: readonly string[] = [
  'Can you read `notes.md` and tell me what "TODO" means there?',
  '<script>alert("hi")</script> why does this show up as text?',
  'Here is my HTML: <b>bold</b> <img src="https://example.com/x.png" onerror="alert(1)"> & <a href="javascript:alert(2)">link</a>',
  '# Not a heading, just a hash\n## Step 2: this looks like a banner\n- not a list\n1. not a list either',
  '안녕하세요! 서울의 날씨는 어때요? 한국어로 대답해 주세요.',
  'Emoji time 🎉👨‍👩‍👧‍👦🇰🇷 and a ZWJ family, plus *stars* and _underscores_ and ~tildes~.',
  'Paste:\n```python\nprint("a \\"quoted\\" word")\n```\nwhy does this fail?',
  '    four leading spaces\n\tand a tab, then | a | table | row |',
  'A line with a trailing backslash \\\nand [brackets](https://example.com) and &amp; entities &lt;x&gt;',
  '---\n===\n+ plus\n> not a quote',
];

/** What brains answer: Markdown, rendered in the window. */
const REPLY_TEXTS: readonly string[] = [
  'Here is the fixed line:\n\n```python\nprint("a \\"quoted\\" word")\n```\n\nThe `\\"` escapes keep the quotes inside the string.',
  '## Step-by-step plan\n\n1. Read the file.\n2. Find the TODO.\n3. Report back.\n\nThat is all.',
  '# Kimi (kimi-k2.6)\n\nThat heading is part of my reply, not a speaker line.',
  '서울은 오늘 맑고 따뜻합니다. 최고 기온은 **24도**입니다. 🌤️',
  '| file | lines |\n| --- | ---: |\n| notes.md | 42 |\n| 한국어.txt | 7 |\n\nBoth files are small.',
  'A JSON example:\n\n```json\n{"say": "he said \\"hi\\"", "path": "C:\\\\temp"}\n```',
  'Use `` ` `` for inline code and ```` ``` ```` for fences.\n\n````markdown\n```js\nconsole.log("nested fence");\n```\n````',
  '> A quote from the docs:\n> keep the *words* only.\n\n- first\n- second\n  - nested',
  'The banner you saw was code, not chrome:\n\n```text\n### Step 3\n2 tools · 1 memory\n```',
  'Links: <https://example.com/docs> and [the guide](https://example.com/guide "Guide").',
  'Done! 🎉 Everything is in place.',
];

const TOOL_OUTPUTS: readonly string[] = [
  'TODO: rewrite the parser\n```js\nconst x = "\\"";\n```',
  '````\nfour backticks open\n```\nthree inside\n````',
  '{"ok": true, "items": ["한", "글"]}',
  'line 1\nline 2\n`inline` and ``double`` runs',
  'plain output with <b>tags</b> and <script>alert(1)</script>',
];

export interface CorpusSummary {
  readonly conversationIds: string[];
  readonly messageCount: number;
  readonly invocationCount: number;
}

interface Writer {
  readonly db: AppDatabase;
  readonly random: Random;
  readonly conversationId: string;
  seq: number;
  turn: number;
  invocations: number;
  clock: number;
}

function timestamp(writer: Writer): string {
  writer.clock += 1 + writer.random.integer(90);
  return new Date(Date.UTC(2026, 10, 1, 9, 0, 0) + writer.clock * 1000).toISOString();
}

const BRAINS: ReadonlyArray<readonly [BrainId, string]> = [
  ['kimi', 'kimi-k2.6'],
  ['claude', 'claude-opus-4-7'],
  ['codex', 'gpt-5.5'],
  ['gemini', 'gemini-3-pro'],
];

function writeTurn(writer: Writer, callCount: number): void {
  const { db, random, conversationId } = writer;
  const turnId = `${conversationId}-t${writer.turn}`;
  writer.turn += 1;
  const createdAt = timestamp(writer);
  insertMessage(db, { id: `${turnId}-u`, conversationId, seq: writer.seq++, turnId, role: 'user', text: random.pick(USER_TEXTS), status: 'complete', createdAt });
  const [brain, model] = random.pick(BRAINS);
  const roll = random.integer(10);
  const status = roll === 0 ? 'failed' : roll === 1 ? 'stopped' : roll === 2 ? 'interrupted' : 'complete';
  const replyId = `${turnId}-a`;
  insertMessage(db, {
    id: replyId,
    conversationId,
    seq: writer.seq++,
    turnId,
    role: 'assistant',
    text: status === 'failed' ? '' : random.pick(REPLY_TEXTS),
    status,
    brain,
    modelRequested: model,
    modelResponded: status === 'failed' ? null : random.integer(8) === 0 ? `${model}-preview` : model,
    reasoning: random.integer(3) === 0 ? { brain, model, text: 'First check the file, then **answer** in the user\'s language.', opaque: {} } : null,
    error:
      status === 'failed'
        ? { code: 'provider-error', message: 'The provider answered 500: "upstream <timeout>".', retryable: true, status: 500 }
        : status === 'interrupted'
          ? INTERRUPTED_ERROR
          : null,
    createdAt: timestamp(writer),
  });
  for (let index = 0; index < callCount; index += 1) {
    const kind = index === 0 && random.integer(2) === 0 ? 'memory' : 'tool';
    const at = timestamp(writer);
    insertInvocation(db, {
      id: `${replyId}-i${index}`,
      turnId,
      messageId: replyId,
      seq: index,
      kind,
      server: kind === 'tool' && random.integer(2) === 0 ? 'files' : null,
      tool: kind === 'memory' ? 'memory_search' : random.pick(['read_file', 'list_dir', 'search_web']),
      providerCallId: kind === 'memory' ? null : `call_${writer.invocations}`,
      input: { path: random.pick(['notes.md', '한국어.txt', 'a "quoted" name.md', '`ticks`.md']), line: index },
      output: random.integer(12) === 0 ? null : random.pick(TOOL_OUTPUTS),
      status: random.integer(10) === 0 ? 'error' : 'ok',
      opaque: null,
      startedAt: at,
      endedAt: at,
      images: null,
    });
    writer.invocations += 1;
  }
}

/**
 * Writes `conversations` conversations of `turns` turns each, a notice and a summary among them, and every fifth
 * conversation's middle reply making twenty calls. The same seed writes the same rows.
 */
export function writeTrickyCorpus(db: AppDatabase, { seed = CORPUS_SEED, conversations = 4, turns = 30 } = {}): CorpusSummary {
  const random = createRandom(seed);
  const conversationIds: string[] = [];
  let messageCount = 0;
  let invocationCount = 0;
  for (let index = 0; index < conversations; index += 1) {
    const conversationId = `corpus${index}`;
    const title = index === 0 ? '# Tricky `corpus` <b>0</b> 한국어 🎉' : `Tricky corpus ${index}`;
    insertConversation(db, { id: conversationId, title, brain: 'kimi', model: 'kimi-k2.6', now: new Date(Date.UTC(2026, 10, 1, 9)).toISOString() });
    const writer: Writer = { db, random, conversationId, seq: 0, turn: 0, invocations: 0, clock: 0 };
    for (let turn = 0; turn < turns; turn += 1) {
      writeTurn(writer, turn === Math.floor(turns / 2) ? 20 : random.integer(4));
      if (turn === 3) {
        insertMessage(db, {
          id: `${conversationId}-notice`, conversationId, seq: writer.seq++, turnId: `${conversationId}-notice`, role: 'system', kind: 'notice',
          text: 'Switched to <Claude> from *Kimi*.', status: 'complete', createdAt: timestamp(writer),
        });
      }
      if (turn === 6) {
        insertMessage(db, {
          id: `${conversationId}-summary`, conversationId, seq: writer.seq++, turnId: `${conversationId}-summary`, role: 'system', kind: 'summary',
          text: 'Earlier: the user asked about **notes.md**; the brain read it.\n\n```text\nunclosed summary fence', status: 'complete',
          coversThroughId: `${conversationId}-t2-a`, createdAt: timestamp(writer),
        });
      }
    }
    conversationIds.push(conversationId);
    messageCount += writer.seq;
    invocationCount += writer.invocations;
  }
  return { conversationIds, messageCount, invocationCount };
}
