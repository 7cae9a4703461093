/**
 * Live rows → neutral replay turns. What a replay shows is what happened: failed replies and empty rows are left out,
 * stopped and interrupted replies keep the words the user saw. Only calls the brain itself made replay as calls:
 * memories the app retrieved and skills the user started were that turn's context.
 */
import { isBrainId } from '../../../src-shared/brains';
import type { InvocationRow } from '../store/invocations';
import type { MessageRow, StoredReasoning } from '../store/messages';
import { deriveCallId } from './call-shaping';
import type { ReplayCall, ReplayTurn } from './types';

function toReplayCall(messageId: string, invocation: InvocationRow, position: number): ReplayCall {
  const input = invocation.input;
  return {
    callId: deriveCallId(messageId, position),
    ...(invocation.providerCallId ? { providerCallId: invocation.providerCallId } : {}),
    name: invocation.tool,
    input: typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
    answer: invocation.output ?? '',
    isError: invocation.status !== 'ok',
    server: invocation.server,
    ...(invocation.opaque === null || invocation.opaque === undefined ? {} : { opaque: invocation.opaque }),
  };
}

export function collectReplayTurns(
  rows: readonly MessageRow[],
  invocationsByMessage: ReadonlyMap<string, readonly InvocationRow[]> = new Map(),
): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  for (const row of rows) {
    if (row.status === 'failed' || row.status === 'streaming') continue;
    switch (row.role) {
      case 'user':
        if (row.text.length > 0) turns.push({ messageId: row.id, role: 'user', kind: row.kind, text: row.text, calls: [] });
        break;
      case 'system':
        if (row.text.length > 0) turns.push({ messageId: row.id, role: 'system-line', kind: row.kind, text: row.text, calls: [] });
        break;
      case 'assistant': {
        const calls = (invocationsByMessage.get(row.id) ?? [])
          .filter((invocation) => invocation.kind === 'tool')
          .map((invocation, position) => toReplayCall(row.id, invocation, position));
        if (row.text.length === 0 && calls.length === 0) break;
        const reasoning = row.reasoning as StoredReasoning | null;
        turns.push({
          messageId: row.id,
          role: 'assistant',
          kind: row.kind,
          text: row.text,
          calls,
          ...(isBrainId(row.brain) ? { brain: row.brain } : {}),
          ...(row.modelRequested ? { model: row.modelRequested } : {}),
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
