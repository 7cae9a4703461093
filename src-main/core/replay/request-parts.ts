/**
 * A turn's request as plain data: the rows and everything read for them from the store and the data folder, and the
 * rest of the request. Building its body is pure, so the same function runs on the main thread and in the worker
 * that builds a long history's body (engine/request-body-worker.ts).
 */
import type { WireId } from '../../../src-shared/brains';
import type { InvocationRow } from '../store/invocations';
import type { MessageRow } from '../store/messages';
import { collectReplayTurns } from './collect';
import type { ReplayAttachment, ReplayRequest, ReplayTurn, WireRequest } from './types';
import { buildWireRequest } from './wires';

/** Plain data: it crosses to a worker thread as it is. */
export interface TurnRequestParts {
  readonly wire: WireId;
  readonly rows: readonly MessageRow[];
  readonly invocations: ReadonlyMap<string, readonly InvocationRow[]>;
  readonly attachments: ReadonlyMap<string, readonly ReplayAttachment[]>;
  readonly leading: readonly ReplayTurn[];
  readonly pending: readonly ReplayTurn[];
  readonly request: Omit<ReplayRequest, 'turns'>;
}

/** The body from its parts. */
export function buildFromParts(parts: TurnRequestParts): WireRequest {
  const history = collectReplayTurns(parts.rows, parts.invocations, parts.attachments, { asWritten: true });
  return buildWireRequest(parts.wire, { ...parts.request, turns: [...parts.leading, ...history, ...parts.pending] });
}
