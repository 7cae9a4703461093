/**
 * Seeds a realistic conversation straight into SQLite: alternating user and assistant rows with short and long
 * replies (some Hangul and emoji), reasoning on some replies, 1–3 tool calls on every other reply, and the memories and
 * skills the app brought to some turns, stored as the engine stores them (invocations of the turn's reply). Plain prepared statements in one transaction, so 100,000 messages seed in seconds.
 */
import { anthropicThinkingSignature } from '../../e2e/fake-brains/derived-tokens';
import { BRAINS, type BrainId } from '../../src-shared/brains';
import { seededRandom } from '../../src-main/cli/testing';
import { estimateRowTokens } from '../../src-main/core/context/row-estimate';
import { newId } from '../../src-main/core/store/clock';
import { recomputeReplayedTotals } from '../../src-main/core/store/messages';
import type { AppDatabase } from '../../src-main/core/store/open';
import type { ToolDefinition } from '../../src-main/core/tools/catalogue';

const ENGLISH_SENTENCES = [
  'The migration ran cleanly on the staging copy, so the next step is to try it on a snapshot of production.',
  'Here is the short version: the cache key changes whenever the system prompt changes, so keep it stable.',
  'I checked the log and the timeout happens only when the upstream server takes longer than thirty seconds.',
  'You can split the work into three steps, and each one can be tested on its own before you combine them.',
  'That function returns a promise, so the caller needs to await it or the error will go unhandled.',
  'The numbers look reasonable, although the second quarter is lower than the forecast by about eight percent.',
  'If you want, I can draft the email to the landlord and keep the tone polite but firm about the deadline.',
  'Sorting by the composite index avoids a temporary B-tree, which is where most of the time went.',
  'Remember that the lease ends on the last day of March, so the notice has to go out in January. 📅',
  'Great question! The short answer is yes, but there are two edge cases worth knowing about. 🙂',
];

const KOREAN_SENTENCES = [
  '오늘 회의는 오후 세 시로 옮겨졌어요.',
  '이 코드는 배열을 한 번만 순회하니까 충분히 빠릅니다.',
  '주말에 비가 온다고 해서 등산 계획을 다음 주로 미뤘어요. ☔',
  '파일 이름에 공백이 있으면 따옴표로 감싸야 합니다.',
  '요약하면, 첫 번째 방법이 더 간단하고 유지보수도 쉽습니다. 👍',
];

const CODE_SNIPPETS = [
  '```ts\nexport function median(values: number[]): number {\n  const sorted = [...values].sort((a, b) => a - b);\n  return sorted[Math.floor(sorted.length / 2)] ?? 0;\n}\n```',
  '```sql\nSELECT id, seq, text FROM messages WHERE conversation_id = ? ORDER BY seq;\n```',
  '```bash\nfind . -name "*.log" -mtime +7 -delete\n```',
];

const USER_OPENERS = [
  'Can you help me with this?',
  'Why does this happen?',
  'Thanks! One more thing:',
  '이거 좀 봐줄래?',
  'Quick question 🙏',
  'Okay, next step.',
];

export const SEEDED_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'current_time',
    description: 'The current date and time.',
    inputSchema: { type: 'object', properties: { zone: { type: 'string' } } },
    server: null,
    execute: () => Promise.resolve({ output: '2026-11-30T20:00:00+09:00', isError: false }),
  },
  {
    name: 'files__read_file',
    description: 'Read a file in a granted folder.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    server: 'files',
    execute: () => Promise.resolve({ output: '', isError: false }),
  },
  {
    name: 'files__write_file',
    description: 'Write a file in a granted folder.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
    server: 'files',
    execute: () => Promise.resolve({ output: 'written', isError: false }),
  },
  {
    name: 'web__search',
    description: 'Search the web.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' } }, required: ['query'] },
    server: 'web',
    execute: () => Promise.resolve({ output: '', isError: false }),
  },
];

/** The brains that answer in turn, each with its default model. */
const ANSWERING_BRAINS: readonly BrainId[] = ['claude', 'codex', 'kimi', 'gemini', 'ollama', 'glm', 'grok'];

interface SeededCall {
  readonly kind: 'tool' | 'memory' | 'skill';
  readonly server: string | null;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly output: string;
  readonly status: 'ok' | 'error';
  readonly providerCallId: string | null;
  readonly opaque: unknown;
}

export interface SeededConversation {
  readonly conversationId: string;
  readonly messageCount: number;
  readonly invocationCount: number;
  readonly seedMs: number;
}

/** Deterministic realistic content: picks, lengths, prose, opaque tokens. */
class RandomContent {
  constructor(readonly next: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  between(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Whole sentences up to about `length` characters; never cut inside a surrogate pair. */
  prose(length: number): string {
    const parts: string[] = [];
    let total = 0;
    while (total < length) {
      const sentence =
        this.chance(0.08) ? this.pick(CODE_SNIPPETS) : this.chance(0.2) ? this.pick(KOREAN_SENTENCES) : this.pick(ENGLISH_SENTENCES);
      parts.push(sentence);
      total += sentence.length + 1;
    }
    return parts.join(this.chance(0.3) ? '\n\n' : ' ');
  }

  /** Opaque-looking base64 of about `length` characters, like a provider signature or encrypted item. */
  opaqueToken(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let token = '';
    for (let index = 0; index < length; index += 1) token += alphabet[Math.floor(this.next() * 64)];
    return token;
  }
}

function providerCallIdFor(brain: BrainId, tool: string, position: number, content: RandomContent): string | null {
  switch (BRAINS[brain].wire) {
    case 'chat-completions':
      return `functions.${tool}:${position}`;
    case 'anthropic-messages':
      return `toolu_${content.opaqueToken(24).replace(/[+/]/g, 'x')}`;
    case 'openai-responses':
      return `call_${content.opaqueToken(24).replace(/[+/]/g, 'x')}`;
    default:
      return null;
  }
}

function toolCallsFor(brain: BrainId, content: RandomContent): SeededCall[] {
  const count = content.between(1, 3);
  const calls: SeededCall[] = [];
  for (let position = 0; position < count; position += 1) {
    const variant = content.between(0, 19);
    let server: string | null;
    let tool: string;
    let input: Record<string, unknown>;
    if (variant < 8) {
      server = 'files';
      tool = 'read_file';
      input = { path: content.pick(['notes/오늘.md', 'src/app.ts', 'docs/lease-2026.pdf', 'budget/q2.csv']) };
    } else if (variant < 14) {
      server = 'web';
      tool = 'search';
      input = { query: content.prose(40), limit: content.between(3, 10) };
    } else if (variant < 16) {
      server = 'files';
      tool = 'write_file';
      input = { path: 'drafts/letter.md', content: content.prose(content.between(300, 1200)) };
    } else if (variant < 19) {
      server = null;
      tool = 'current_time';
      input = { zone: content.pick(['Asia/Seoul', 'Europe/Paris', 'UTC']) };
    } else {
      // A tool from a server that is no longer connected: replays as a labelled record.
      server = 'postgres';
      tool = 'query';
      input = { sql: 'SELECT count(*) FROM orders WHERE created_at > now() - interval \'7 days\'' };
    }
    const failed = content.chance(0.05);
    calls.push({
      kind: 'tool',
      server,
      tool,
      input,
      output: failed ? 'Error: permission denied' : content.prose(content.between(200, 2000)),
      status: failed ? 'error' : 'ok',
      providerCallId: providerCallIdFor(brain, tool, position, content),
      opaque: brain === 'gemini' ? { thoughtSignature: content.opaqueToken(120) } : null,
    });
  }
  return calls;
}

/** What the app brings to a turn on its own: a skill the user started with `/name`, then the memories it recalled. */
function turnContextFor(content: RandomContent): SeededCall[] {
  const context: SeededCall[] = [];
  if (content.chance(0.02)) {
    context.push({
      kind: 'skill',
      server: null,
      tool: 'weekly-review',
      input: { input: content.prose(40) },
      output: content.prose(content.between(600, 1200)),
      status: 'ok',
      providerCallId: null,
      opaque: null,
    });
  }
  if (content.chance(0.25)) {
    for (let count = content.between(1, 2); count > 0; count -= 1) {
      context.push({
        kind: 'memory',
        server: null,
        tool: 'memory',
        input: { memoryId: newId() },
        output: content.prose(content.between(100, 300)),
        status: 'ok',
        providerCallId: null,
        opaque: null,
      });
    }
  }
  return context;
}

function reasoningFor(brain: BrainId, model: string, content: RandomContent): Record<string, unknown> {
  const thought = content.prose(content.between(200, 800));
  let blocks: unknown[] = [];
  switch (BRAINS[brain].wire) {
    case 'anthropic-messages':
      // Signed as the fake brains sign: a replay of the thought to the model that wrote it is checked against it.
      blocks = [{ type: 'thinking', thinking: thought, signature: anthropicThinkingSignature(model, thought) }];
      break;
    case 'openai-responses':
      blocks = [{ type: 'reasoning', id: `rs_${content.opaqueToken(20)}`, summary: [], encrypted_content: content.opaqueToken(600) }];
      break;
    case 'gemini-generate-content':
      blocks = [{ thoughtSignature: content.opaqueToken(200) }];
      break;
    default:
      break;
  }
  return { brain, model, text: thought, opaque: { blocks } };
}

/**
 * The newest `messages` rows drawn from a random sequence of their own: two conversations of different lengths given
 * the same ending show the same newest page, so timing them compares their lengths, not their last words.
 */
export interface SeededEnding {
  readonly messages: number;
  readonly randomSeed: number;
}

/** Inserts one conversation of `messageCount` messages and returns how long it took. */
export function seedConversation(db: AppDatabase, messageCount: number, randomSeed: number, ending?: SeededEnding): SeededConversation {
  const sqlite = db.$client;
  // The ending starts on a user message, so its turns line up whatever comes before it.
  const endingFrom = ending === undefined ? messageCount : Math.max(0, messageCount - ending.messages - ((messageCount - ending.messages) % 2));
  let content = new RandomContent(seededRandom(randomSeed));
  /** The first reply drawn from the current random sequence: brains and tool calls take turns from there. */
  let firstReply = 0;
  const conversationId = newId();
  const started = performance.now();
  const insertConversation = sqlite.prepare(
    'INSERT INTO conversations (id, title, brain, model, reasoning_level, created_at, updated_at, archived) VALUES (?, ?, ?, ?, ?, ?, ?, 0)',
  );
  const insertMessage = sqlite.prepare(
    `INSERT INTO messages (id, conversation_id, seq, turn_id, role, kind, text, token_estimate, status, error, brain,
       model_requested, model_responded, reasoning_level, reasoning, usage, compacted_into, created_at, updated_at, parent_id)
     VALUES (?, ?, ?, ?, ?, 'chat', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
  );
  const insertInvocation = sqlite.prepare(
    `INSERT INTO tool_invocations (id, turn_id, message_id, seq, kind, server, tool, provider_call_id, input, output, status,
       opaque, started_at, ended_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const startMs = Date.parse('2026-01-05T09:00:00.000Z');
  let invocationCount = 0;

  sqlite.transaction(() => {
    const createdAt = new Date(startMs).toISOString();
    insertConversation.run(conversationId, `Benchmark (${messageCount} messages)`, 'claude', null, null, createdAt, createdAt);
    let turnId = '';
    // Each row follows the one before it, as the app stores a conversation without branches: a row without a parent
    // would be one more alternative of the first message.
    let parentId: string | null = null;
    for (let seq = 0; seq < messageCount; seq += 1) {
      if (ending !== undefined && seq === endingFrom) {
        content = new RandomContent(seededRandom(ending.randomSeed));
        firstReply = seq / 2;
      }
      const at = new Date(startMs + seq * 7_000).toISOString();
      const id = newId();
      if (seq % 2 === 0) {
        turnId = newId();
        const body = content.chance(0.7) ? content.prose(content.between(20, 200)) : `${content.pick(USER_OPENERS)} ${content.prose(content.between(100, 500))}`;
        insertMessage.run(id, conversationId, seq, turnId, 'user', body, estimateRowTokens(body), 'complete', null, null, null, null, null, null, null, at, at, parentId);
        parentId = id;
        continue;
      }
      const reply = (seq - 1) / 2 - firstReply;
      const brain = ANSWERING_BRAINS[reply % ANSWERING_BRAINS.length]!;
      const model = BRAINS[brain].defaultModel;
      const body = content.chance(0.55) ? content.prose(content.between(60, 400)) : content.prose(content.between(1000, 2000));
      const outcome = content.next();
      const status = outcome < 0.005 ? 'failed' : outcome < 0.015 ? 'stopped' : outcome < 0.02 ? 'interrupted' : 'complete';
      const error =
        status === 'failed'
          ? JSON.stringify({ code: 'provider-error', message: 'The provider answered 529: overloaded.', retryable: true, status: 529 })
          : status === 'interrupted'
            ? JSON.stringify({ code: 'interrupted', message: 'Anybrain closed while this reply was being written.', retryable: true })
            : null;
      const reasoning = content.chance(0.3) ? JSON.stringify(reasoningFor(brain, model, content)) : null;
      const usage = JSON.stringify({ inputTokens: content.between(1_000, 90_000), outputTokens: content.between(20, 1_500), cacheReadTokens: content.between(0, 80_000) });
      const calls = [...turnContextFor(content), ...(reply % 2 === 0 ? toolCallsFor(brain, content) : [])];
      // The estimate the engine stores with a reply: its words and the calls and context it replays.
      const tokens = estimateRowTokens(body, calls);
      insertMessage.run(id, conversationId, seq, turnId, 'assistant', body, tokens, status, error, brain, model, model, 'medium', reasoning, usage, at, at, parentId);
      parentId = id;

      calls.forEach((call, position) => {
        insertInvocation.run(
          newId(),
          turnId,
          id,
          position,
          call.kind,
          call.server,
          call.tool,
          call.providerCallId,
          JSON.stringify(call.input),
          call.output,
          call.status,
          call.opaque === null ? null : JSON.stringify(call.opaque),
          at,
          at,
        );
      });
      invocationCount += calls.length;
    }
    // The running totals the store keeps as rows are written (store/messages.ts), rebuilt once after the raw inserts.
    recomputeReplayedTotals(db, conversationId);
  })();

  return { conversationId, messageCount, invocationCount, seedMs: performance.now() - started };
}

