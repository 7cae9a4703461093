/**
 * Turn leases (migration 0009): which process answers in a conversation, so two processes on one data folder (the
 * window, the web host, the command line) never write two replies in one conversation at once. The turn engine holds
 * one turn per conversation within a process; the lease holds it across processes.
 */
import { ApiError } from '../../../src-shared/api';
import { newId } from './clock';
import { guardedWrite } from './guarded-write';
import { inTransaction, type AppDatabase } from './open';
import { statementCacheFor } from './statements';

/** What a second process asking for a turn in a conversation another process answers in is told. */
export const ANSWERING_ELSEWHERE_MESSAGE = 'Anybrain is answering in this conversation in another window.';

/** How long a lease holds without being renewed: a holder renews it every TURN_LEASE_RENEW_MS while its reply runs. */
export const TURN_LEASE_MS = 30_000;
export const TURN_LEASE_RENEW_MS = 10_000;

/** Who holds a lease: this process (`pid@host`) and the token it minted when it opened the data folder. */
export interface LeaseHolder {
  readonly owner: string;
  readonly token: string;
}

export interface TurnLeaseRequest {
  readonly conversationId: string;
  readonly turnId: string;
  readonly holder: LeaseHolder;
  readonly nowMs: number;
  /** Whether the process that holds a lease still runs (its owner lock); a dead holder's lease is taken over at once. */
  readonly isOwnerAlive: (owner: string) => boolean;
}

interface LeaseRow {
  readonly owner: string;
  readonly token: string;
  readonly expiresAt: number;
}

const selectLease = statementCacheFor('SELECT owner, token, expires_at AS expiresAt FROM turn_leases WHERE conversation_id = ?');
const upsertLease = statementCacheFor(
  `INSERT INTO turn_leases (conversation_id, turn_id, owner, token, expires_at) VALUES (?, ?, ?, ?, ?)
   ON CONFLICT (conversation_id) DO UPDATE SET turn_id = excluded.turn_id, owner = excluded.owner, token = excluded.token, expires_at = excluded.expires_at`,
);
const renewLease = statementCacheFor('UPDATE turn_leases SET expires_at = ? WHERE conversation_id = ? AND token = ?');
const deleteLease = statementCacheFor('DELETE FROM turn_leases WHERE conversation_id = ? AND token = ?');
const deleteLeaseOfTurn = statementCacheFor('DELETE FROM turn_leases WHERE conversation_id = ? AND token = ? AND turn_id = ?');

/**
 * Takes the conversation's lease, inside the transaction that admits the turn (BEGIN IMMEDIATE, store/open.ts: no
 * other process can read the same free lease between this read and the write). Refused while another live holder's
 * lease has not lapsed; a lease of this holder's own (a reply whose end could not be stored) is taken again.
 */
export function takeTurnLease(db: AppDatabase, request: TurnLeaseRequest): void {
  const { conversationId, turnId, holder, nowMs } = request;
  const held = selectLease(db).get(conversationId) as LeaseRow | undefined;
  if (held !== undefined && held.token !== holder.token && held.expiresAt > nowMs && request.isOwnerAlive(held.owner)) {
    throw new ApiError('answering-elsewhere', ANSWERING_ELSEWHERE_MESSAGE);
  }
  upsertLease(db).run(conversationId, turnId, holder.owner, holder.token, nowMs + TURN_LEASE_MS);
}

/**
 * Moves the lease's end on while its reply runs; false when the holder no longer holds it (it lapsed and another
 * process took the conversation), and then nothing is changed.
 */
export function renewTurnLease(db: AppDatabase, conversationId: string, holder: LeaseHolder, nowMs: number): boolean {
  return renewLease(db).run(nowMs + TURN_LEASE_MS, conversationId, holder.token).changes === 1;
}

/** Lets the conversation go, in the transaction that stores the reply's end; a lease another holder took stays. */
export function releaseTurnLease(db: AppDatabase, conversationId: string, holder: LeaseHolder): void {
  deleteLease(db).run(conversationId, holder.token);
}

/** Lets the conversation go if the lease is still the one `turnId` took: a later turn of the same holder keeps its own. */
export function releaseTurnLeaseOf(db: AppDatabase, conversationId: string, turnId: string, holder: LeaseHolder): void {
  deleteLeaseOfTurn(db).run(conversationId, holder.token, turnId);
}

/**
 * Takes the conversation's lease for work that is not a turn (a compaction the user starts), renewed while it runs:
 * another process's turn would otherwise write beside rows this work folds away. Answers the function letting it go.
 */
export function holdTurnLease(db: AppDatabase, request: Omit<TurnLeaseRequest, 'turnId' | 'nowMs'> & { readonly nowMs: () => number }): () => void {
  const { conversationId, holder, nowMs } = request;
  inTransaction(db, () => takeTurnLease(db, { ...request, turnId: newId(), nowMs: nowMs() }));
  const renewal = setInterval(() => guardedWrite('renewing a turn lease', () => renewTurnLease(db, conversationId, holder, nowMs())), TURN_LEASE_RENEW_MS);
  return () => {
    clearInterval(renewal);
    // Refused, the lease lapses on its own after TURN_LEASE_MS.
    guardedWrite('letting a conversation go', () => releaseTurnLease(db, conversationId, holder));
  };
}
