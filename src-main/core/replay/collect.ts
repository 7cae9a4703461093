/**
 * Live rows → neutral replay turns. What a replay shows is what happened: failed replies and empty rows are left out,
 * stopped and interrupted replies keep the words the user saw.
 */
import { isBrainId } from '../../../src-shared/brains';
import type { MessageRow, StoredReasoning } from '../store/messages';
import type { ReplayTurn } from './types';

export function collectReplayTurns(rows: readonly MessageRow[]): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  for (const row of rows) {
    if (row.status === 'failed' || row.status === 'streaming') continue;
    if (row.text.length === 0) continue;
    switch (row.role) {
      case 'user':
        turns.push({ messageId: row.id, role: 'user', kind: row.kind, text: row.text, calls: [] });
        break;
      case 'system':
        turns.push({ messageId: row.id, role: 'system-line', kind: row.kind, text: row.text, calls: [] });
        break;
      case 'assistant': {
        const reasoning = row.reasoning as StoredReasoning | null;
        turns.push({
          messageId: row.id,
          role: 'assistant',
          kind: row.kind,
          text: row.text,
          calls: [],
          ...(isBrainId(row.brain) ? { brain: row.brain } : {}),
          ...(reasoning ? { reasoning } : {}),
        });
        break;
      }
      default: {
        const unreachable: never = row.role;
        throw new Error(`Unknown message role ${String(unreachable)}`);
      }
    }
  }
  return turns;
}
