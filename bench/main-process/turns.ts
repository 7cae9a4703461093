/**
 * What the main-process benchmarks share: a core opened as a host opens it, pointed at the fake brains in their own
 * process, and one turn sent through `dispatch('send', …)` the way a window sends it.
 */
import type { ApiEvent, MessageView } from '../../src-shared/api';
import type { OpenedCore } from '../../src-main/core/app';
import { within } from '../support/bounded-wait';
import { LoopWatch, type LoopPhase } from '../support/loop-watch';
import { formatStoredReply, type StoredReply } from '../support/window-state';

/** Seeding 100,000 messages (and indexing them for search) on a loaded two-core machine. */
export const SEED_TIMEOUT_MS = 600_000;

/**
 * One turn, from `send` to `turn-done` or `turn-failed`, the bound the streaming benchmark gives a reply. The longest
 * turn here, the first send at 100,000 messages, compacts about 99,000 messages in 34 summary requests before it.
 */
export const TURN_BOUND_MS = 240_000;

/** The conversation's newest reply as the store holds it; for a lapsed wait's message (read only then). */
function storedReply(core: OpenedCore, conversationId: string): string {
  const reply = core.db.$client
    .prepare("SELECT status, length(text) AS length FROM messages WHERE conversation_id = ? AND role = 'assistant' ORDER BY seq DESC LIMIT 1")
    .get(conversationId) as StoredReply | undefined;
  return formatStoredReply(reply ?? null);
}

/** A size in a scenario name: `100`, `10k`, `100k`. */
export function sizeLabel(messages: number): string {
  return messages >= 1_000 && messages % 1_000 === 0 ? `${messages / 1_000}k` : String(messages);
}

export interface SentTurn {
  /** From the `send` dispatch to the `turn-started` event, in milliseconds. */
  readonly turnStartedMs: number;
  /** From the `send` dispatch to `turn-done`, in milliseconds. */
  readonly doneMs: number;
  /** How many `message-delta` events the turn emitted. */
  readonly deltaEvents: number;
  readonly reply: MessageView;
}

/** Sends `text` and waits for the turn to end; a failed turn throws, so a broken path never passes for a fast one. */
export async function sendTurn(core: OpenedCore, conversationId: string, text: string): Promise<SentTurn> {
  let turnStartedAt: number | null = null;
  let deltaEvents = 0;
  let settle: (event: ApiEvent) => void = () => {};
  const ended = new Promise<ApiEvent>((resolve) => (settle = resolve));
  const unsubscribe = core.onEvent((event) => {
    if (!('conversationId' in event) || event.conversationId !== conversationId) return;
    if (event.type === 'turn-started') turnStartedAt = performance.now();
    else if (event.type === 'message-delta') deltaEvents += 1;
    else if (event.type === 'turn-done' || event.type === 'turn-failed') settle(event);
  });
  let answered = false;
  try {
    const sentAt = performance.now();
    // One timer for the whole turn; what the turn had reached is read only if it lapses.
    const end = await within(
      (async () => {
        const result = await core.dispatch('send', { conversationId, text });
        answered = true;
        if (!result.ok) throw new Error(`send failed: ${result.error.code}: ${result.error.message}`);
        return ended;
      })(),
      {
        what: `the turn in ${conversationId} never ended with turn-done or turn-failed`,
        withinMs: TURN_BOUND_MS,
        observe: () =>
          `send ${answered ? 'was answered' : 'was never answered'}; turn-started ${turnStartedAt === null ? 'never came' : 'came'}; ` +
          `${deltaEvents} message-delta events; ${storedReply(core, conversationId)}`,
      },
    );
    const doneMs = performance.now() - sentAt;
    if (end.type !== 'turn-done') throw new Error(`The turn failed: ${JSON.stringify(end)}`);
    if (turnStartedAt === null) throw new Error('The turn ended without a turn-started event');
    return { turnStartedMs: (turnStartedAt as number) - sentAt, doneMs, deltaEvents, reply: end.message };
  } finally {
    unsubscribe();
  }
}

/** A fake-brain directive that streams `reply` word by word (base64 carries any text through the directive). */
export function replyDirective(reply: string): string {
  return `[reply-base64:${Buffer.from(reply, 'utf8').toString('base64')}]`;
}

const PROSE = [
  'The migration ran cleanly on the staging copy, so the next step is to try it on a snapshot of production.',
  'Sorting by the composite index avoids a temporary B-tree, which is where most of the time went.',
  '오늘 회의는 오후 세 시로 옮겨졌어요.',
  '- a list item that names `listLiveMessagesFrom` and the **window guard**',
  '```ts\nconst total = rows.reduce((sum, row) => sum + row.tokens, 0);\n```',
  'Great question! The short answer is yes, but there are two edge cases worth knowing about. 🙂',
];

/** A mixed Markdown reply of about `words` words. */
export function replyOfWords(words: number): string {
  const parts: string[] = [];
  let count = 0;
  for (let index = 0; count < words; index += 1) {
    const sentence = PROSE[index % PROSE.length]!;
    parts.push(sentence);
    count += sentence.split(' ').length;
  }
  return parts.join('\n\n');
}

export interface TurnStalls {
  /** From `send` to the first `message-delta`: admission, the request build, sending it. */
  readonly toFirstDelta: LoopPhase;
  /** From the first `message-delta` to `turn-done`: the reply streaming in, and its end stored. */
  readonly streaming: LoopPhase;
  readonly turn: SentTurn;
}

/** Sends one turn while a `LoopWatch` times the main thread's tasks, split at the turn's first delta. */
export async function turnStalls(core: OpenedCore, conversationId: string, text: string): Promise<TurnStalls> {
  const watch = new LoopWatch();
  let toFirstDelta: LoopPhase | null = null;
  const unsubscribe = core.onEvent((event) => {
    if (toFirstDelta !== null || event.type !== 'message-delta' || event.conversationId !== conversationId) return;
    toFirstDelta = watch.endPhase();
  });
  try {
    const turn = await sendTurn(core, conversationId, text);
    if (toFirstDelta === null) throw new Error('The turn streamed no delta');
    return { toFirstDelta, streaming: watch.endPhase(), turn };
  } finally {
    unsubscribe();
    watch.dispose();
  }
}

export interface CompactingSend {
  /** Messages the compaction folded under its summary; 0 when the send did not compact. */
  readonly coveredMessages: number;
  /** Requests the summarising brain answered (a long span is read in parts). */
  readonly parts: number;
  /** From `compaction-started` to the last part's summary: reading each part, building and sending its request. */
  readonly summarising: LoopPhase;
  /** From the last part's summary to `compaction-finished`: the transaction that stores the summary and folds the rows. */
  readonly storing: LoopPhase;
  readonly turn: SentTurn;
}

/** Sends one turn in a conversation that must compact first, timing the main thread's tasks through the compaction. */
export async function compactingSend(core: OpenedCore, conversationId: string, text: string): Promise<CompactingSend> {
  const watch = new LoopWatch();
  let summarising: LoopPhase = { longestTaskMs: 0, longestDelayMs: 0 };
  let storing: LoopPhase = { longestTaskMs: 0, longestDelayMs: 0 };
  let coveredMessages = 0;
  let parts = 0;
  let summarisedMessages = 0;
  const unsubscribe = core.onEvent((event) => {
    if (!('conversationId' in event) || event.conversationId !== conversationId) return;
    if (event.type === 'compaction-started') watch.endPhase();
    else if (event.type === 'compaction-progress') {
      const phase = watch.endPhase();
      summarising = {
        longestTaskMs: Math.max(summarising.longestTaskMs, phase.longestTaskMs),
        longestDelayMs: Math.max(summarising.longestDelayMs, phase.longestDelayMs),
      };
      // A part's summary ends with a progress event that counts its messages as read.
      if (event.summarisedMessages > summarisedMessages) parts += 1;
      summarisedMessages = event.summarisedMessages;
    } else if (event.type === 'compaction-finished') {
      storing = watch.endPhase();
      coveredMessages = event.coveredMessages;
    }
  });
  try {
    const turn = await sendTurn(core, conversationId, text);
    return { coveredMessages, parts, summarising, storing, turn };
  } finally {
    unsubscribe();
    watch.dispose();
  }
}
