/** A long conversation as a transcript v1 document, cheap to import, for the context-window tests. */
import Database from 'better-sqlite3';
import { BRAINS } from '../../src-shared/brains';

export interface LongConversation {
  readonly title: string;
  /** User and assistant message pairs. */
  readonly exchanges: number;
  /** About this many tokens of words in each message. */
  readonly messageTokens: number;
  /** Appended to the first question: a directive the fake reads from a compaction request's transcript. */
  readonly firstQuestionSuffix?: string;
}

/** The text of each message: numbered, then filler words to the size asked. */
function filler(who: string, index: number, tokens: number): string {
  return `${who} ${index}: ${'lorem ipsum dolor '.repeat(Math.floor((tokens * 4) / 18))}`.trim();
}

/** Exchanges with Claude; the first reply read the time in Seoul with a tool, so a summary names the tool. */
export function longTranscript(conversation: LongConversation): string {
  const model = BRAINS.claude.defaultModel;
  const messages = Array.from({ length: conversation.exchanges }, (_, index) => [
    {
      id: `u${index}`,
      turn_id: `t${index}`,
      role: 'user',
      kind: 'chat',
      text: `${filler('Question', index, conversation.messageTokens)}${index === 0 ? (conversation.firstQuestionSuffix ?? '') : ''}`,
      created_at: '2026-11-01T09:00:00.000Z',
    },
    {
      id: `a${index}`,
      turn_id: `t${index}`,
      role: 'assistant',
      kind: 'chat',
      text: filler('Answer', index, conversation.messageTokens),
      status: 'complete',
      brain: 'claude',
      model_requested: model,
      model_responded: model,
      created_at: '2026-11-01T09:00:01.000Z',
      ...(index === 0
        ? {
            tool_invocations: [
              { id: 'call0', kind: 'tool', server: null, tool: 'current_time', provider_call_id: 'call_0', input: { zone: 'Asia/Seoul' }, output: '2026-11-01 18:00', status: 'ok' },
            ],
          }
        : {}),
    },
  ]).flat();
  return JSON.stringify({
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'long', title: conversation.title, created_at: '2026-11-01T09:00:00.000Z' },
    messages,
  });
}

/**
 * Gives Ollama's default model a 4,096-token window in the data folder's settings, as a user would in Settings →
 * Context windows: the fake's model was trained for 40,960 tokens, and a compaction test needs one small enough that
 * a long conversation is read in several parts.
 */
export function giveOllamaASmallWindow(databaseFile: string): void {
  const database = new Database(databaseFile, { fileMustExist: true });
  try {
    const windows = { [`ollama/${BRAINS.ollama.defaultModel}`]: { contextWindow: SMALL_OLLAMA_WINDOW } };
    database.prepare("INSERT INTO settings (key, value) VALUES ('modelWindows', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(JSON.stringify(windows));
  } finally {
    database.close();
  }
}

export const SMALL_OLLAMA_WINDOW = 4_096;
