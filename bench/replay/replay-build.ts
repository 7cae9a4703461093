/**
 * The two things the benchmark compares: the replay build a turn performs, and the raw read of the same rows.
 */
import type Database from 'better-sqlite3';
import { BRAINS, type BrainId, type WireId } from '../../src-shared/brains';
import type { ResolvedTarget } from '../../src-main/core/engine/resolve-target';
import type { TurnEngine } from '../../src-main/core/engine/turn-engine';
import { MAX_OUTPUT_TOKENS } from '../../src-main/core/context/pressure';
import { buildTurnRequest } from '../../src-main/core/engine/turn-request';
import { listLiveMessages } from '../../src-main/core/store/messages';
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

/** Reasoning on, so every wire also replays the reasoning its own brain left in the conversation. */
export function targetFor(wire: WireId): ResolvedTarget {
  const brain = BRAIN_FOR_WIRE[wire];
  return { brain, model: BRAINS[brain].defaultModel, reasoningLevel: 'medium' };
}

/**
 * The replay build of one turn, step for step as the engine runs it: live rows, then the engine's own request
 * (invocations of those rows, collect, convert), then the body as the provider SDK serialises it.
 */
export function buildReplayBody(
  engine: TurnEngine,
  db: AppDatabase,
  conversationId: string,
  target: ResolvedTarget,
  tools: readonly ToolDefinition[],
): string {
  const rows = listLiveMessages(db, conversationId);
  const { body } = buildTurnRequest(db, { conversationId, target, rows, tools, skills: [], maxOutputTokens: MAX_OUTPUT_TOKENS });
  void engine;
  return JSON.stringify(body);
}

/** The floor a replay build is held against: every row of the conversation read with plain better-sqlite3, then stringified. */
export function rawReadBaseline(sqlite: Database.Database): (conversationId: string) => string {
  const messagesStatement = sqlite.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq');
  const invocationsStatement = sqlite.prepare(
    'SELECT * FROM tool_invocations WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = ?) ORDER BY message_id, seq',
  );
  return (conversationId) =>
    JSON.stringify({ messages: messagesStatement.all(conversationId), invocations: invocationsStatement.all(conversationId) });
}
