/**
 * The things the benchmark compares: the replay build a turn performs, and raw reads of rows with plain better-sqlite3.
 */
import type Database from 'better-sqlite3';
import { BRAINS, type BrainId, type WireId } from '../../src-shared/brains';
import type { ResolvedWindow } from '../../src-shared/context-windows';
import { ContextWindows } from '../../src-main/core/context/windows';
import { measurePressure } from '../../src-main/core/context/pressure';
import { resolveTarget } from '../../src-main/core/engine/resolve-target';
import type { TurnEngine } from '../../src-main/core/engine/turn-engine';
import { requestOverhead } from '../../src-main/core/engine/turn-request';
import type { AppDatabase } from '../../src-main/core/store/open';
import type { ToolDefinition } from '../../src-main/core/tools/catalogue';

/** One brain per wire: the request each wire is measured with. */
export const BRAIN_FOR_WIRE: Readonly<Record<WireId, BrainId>> = {
  'anthropic-messages': 'claude',
  'openai-responses': 'codex',
  'chat-completions': 'kimi',
  'gemini-generate-content': 'gemini',
  'ollama-chat': 'ollama',
};

/** Kimi's window (kimi-k2.6 in the window table): the window the 100,000-against-1,000 target is stated for. */
export const KIMI_WINDOW = { contextWindow: 262_144, outputLimit: 32_768 } as const;

/**
 * Every brain's window replaced by Kimi's, so each wire's build can be compared at one window size; the source and note
 * stay as the table gave them.
 */
export class KimiWindowForEveryBrain extends ContextWindows {
  override async resolve(brain: BrainId, model: string): Promise<ResolvedWindow> {
    return { ...(await super.resolve(brain, model)), ...KIMI_WINDOW };
  }
}

/**
 * The replay build of one turn, exactly as `anybrain request` and the engine run it: the window guard (the live path
 * walked newest first over the index, the rows outside counted by one aggregate), the rows that fit, their
 * invocations, collect, convert, and the body as the provider SDK serialises it.
 */
export async function buildReplayBody(engine: TurnEngine, conversationId: string, brain: BrainId): Promise<string> {
  return (await engine.previewRequest(conversationId, { brain })).body;
}

/** How a build's request is cut: the oldest row it holds, the rows it holds and the live rows left outside. */
export interface ReplayExtent {
  readonly fromSeq: number;
  readonly heldRows: number;
  readonly outsideRows: number;
}

/** The extent the window guard gives a preview for `brain` (no message of its own), measured outside the timed runs. */
export async function replayExtent(
  db: AppDatabase,
  windows: ContextWindows,
  conversationId: string,
  brain: BrainId,
  tools: readonly ToolDefinition[],
): Promise<ReplayExtent> {
  const target = resolveTarget(db, conversationId, { brain });
  const pressure = await measurePressure(db, windows, {
    conversationId,
    brain,
    model: target.model,
    overheadTokens: requestOverhead(target, tools, []),
  });
  const oldest = pressure.path.fitting[pressure.path.fitting.length - 1];
  return { fromSeq: oldest?.seq ?? Number.MAX_SAFE_INTEGER, heldRows: pressure.path.fitting.length, outsideRows: pressure.path.outsideRows };
}

export function brainLabel(brain: BrainId): string {
  return BRAINS[brain].label;
}

/**
 * The floor a replay build was first held against: every row of the conversation read with plain better-sqlite3,
 * then stringified. Since the window guard a build reads only the rows that fit, so at sizes beyond one window this
 * ratio falls below 1 and says how much less than everything a turn reads.
 */
export function rawReadBaseline(sqlite: Database.Database): (conversationId: string) => string {
  const messagesStatement = sqlite.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq');
  const invocationsStatement = sqlite.prepare(
    'SELECT * FROM tool_invocations WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = ?) ORDER BY message_id, seq',
  );
  return (conversationId) =>
    JSON.stringify({ messages: messagesStatement.all(conversationId), invocations: invocationsStatement.all(conversationId) });
}

/**
 * The floor for the rows a request holds: the rows from `fromSeq` on and their invocations, read with plain
 * better-sqlite3, then stringified. The ratio to it is what the build adds over reading what it replays.
 */
export function rawWindowReadBaseline(sqlite: Database.Database): (conversationId: string, fromSeq: number) => string {
  const messagesStatement = sqlite.prepare('SELECT * FROM messages WHERE conversation_id = ? AND seq >= ? ORDER BY seq');
  const invocationsStatement = sqlite.prepare(
    'SELECT * FROM tool_invocations WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = ? AND seq >= ?) ORDER BY message_id, seq',
  );
  return (conversationId, fromSeq) =>
    JSON.stringify({
      messages: messagesStatement.all(conversationId, fromSeq),
      invocations: invocationsStatement.all(conversationId, fromSeq),
    });
}
