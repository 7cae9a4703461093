/**
 * A sibling reply is a reply like any other: Stop keeps what was shown, a crash leaves it interrupted, an error fails
 * it with Retry working; and the window guard measures only the branch shown.
 */
import { describe, expect, it } from 'vitest';
import { chooseBranch, currentLeafId } from '../store/branches';
import { insertMessage, listMessagePage, markStreamingAsInterrupted, getMessage, INTERRUPTED_ERROR } from '../store/messages';
import { readBrainState, saveBrainState } from '../store/settings';
import { admitTurn } from '../store/turns';
import type { AppDatabase } from '../store/open';
import { scriptedEngine } from './testing';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A question and Kimi's complete reply to it. */
async function answered() {
  const setup = scriptedEngine();
  const first = setup.engine.send('c1', 'Question');
  setup.scripted.push({ type: 'text-delta', text: 'First answer' }, 'end');
  await first.done;
  return { ...setup, userId: first.result.userMessageId, replyId: first.result.assistantMessageId };
}

describe('a sibling reply', () => {
  it('stopped keeps the text shown, as stopped, and the branch shown stays on it', async () => {
    const { db, scripted, engine, userId, replyId } = await answered();
    const again = engine.answerAgain(replyId, null);
    scripted.push({ type: 'text-delta', text: 'alpha ' }, { type: 'text-delta', text: 'beta' });
    await pause(20);
    expect(engine.stop('c1')).toBe(true);
    scripted.push({ type: 'text-delta', text: 'never shown' }, 'end');
    const stopped = await again.done;
    expect(stopped).toMatchObject({ status: 'stopped', text: 'alpha beta', parentId: userId, siblings: { index: 2, count: 2, previousId: replyId, nextId: null } });
    expect(currentLeafId(db, 'c1')).toBe(stopped.id);
    expect(listMessagePage(db, 'c1', 10).rows.map((row) => [row.text, row.status])).toEqual([
      ['Question', 'complete'],
      ['alpha beta', 'stopped'],
    ]);
  });

  it('left streaming by a process that died is marked interrupted, its text kept, the branch shown on it', () => {
    const { db } = scriptedEngine();
    const first = admitTurn(db, { ...turnOf('t1'), userText: 'Question' });
    finishComplete(db, first.assistantRow.id);
    // Another process answered again and died mid-reply.
    const again = admitTurn(db, { ...turnOf('t2'), userText: null, parentId: first.userRow!.id, streamOwner: '999999@elsewhere' });
    db.$client.prepare('UPDATE messages SET text = ? WHERE id = ?').run('half a reply', again.assistantRow.id);
    expect(markStreamingAsInterrupted(db, '2026-11-30T12:00:00.000Z')).toBe(1);
    expect(getMessage(db, again.assistantRow.id)).toMatchObject({ status: 'interrupted', error: INTERRUPTED_ERROR, text: 'half a reply', parentId: first.userRow!.id });
    expect(currentLeafId(db, 'c1')).toBe(again.assistantRow.id);
    expect(getMessage(db, first.assistantRow.id)?.onLivePath).toBe(0);
  });

  it('failed by an error is stored failed, and Retry answers the question again without the other sibling', async () => {
    const { db, scripted, engine, userId, replyId } = await answered();
    const again = engine.answerAgain(replyId, null);
    scripted.push({ type: 'error', error: { code: 'provider-error', message: 'Kimi broke.', retryable: true } }, 'end');
    const failed = await again.done;
    expect(failed).toMatchObject({ status: 'failed', parentId: userId, error: { code: 'provider-error', retryable: true } });
    expect(currentLeafId(db, 'c1')).toBe(failed.id);
    const retry = engine.retry('c1');
    scripted.push({ type: 'text-delta', text: 'Second answer' }, 'end');
    expect(await retry.done).toMatchObject({ status: 'complete', text: 'Second answer' });
    expect(scripted.calls.at(-1)?.body).toMatchObject({ messages: [{ role: 'system' }, { role: 'user', content: 'Question' }] });
    expect((scripted.calls.at(-1)?.body as { messages: unknown[] }).messages).toHaveLength(2);
    expect(listMessagePage(db, 'c1', 10).rows.map((row) => row.text)).toEqual(['Question', '', 'Second answer']);
  });
});

const NOW = '2026-11-30T11:00:00.000Z';

function turnOf(turnId: string) {
  return { conversationId: 'c1', turnId, brain: 'kimi' as const, model: 'kimi-k2.6', reasoningLevel: 'high' as const, streamOwner: null, context: [], now: NOW, lease: { holder: { owner: '1@host', token: 'token-1' }, isOwnerAlive: () => true } };
}

function finishComplete(db: AppDatabase, id: string): void {
  db.$client.prepare("UPDATE messages SET status = 'complete', text = 'First answer', stream_owner = NULL WHERE id = ?").run(id);
}

describe('the window guard on a branched conversation', () => {
  /** A short branch shown, beside a sibling branch far larger than Kimi's window. */
  function branched() {
    const setup = scriptedEngine();
    const add = (id: string, seq: number, tokens: number, parentId?: string) =>
      insertMessage(setup.db, {
        id, conversationId: 'c1', seq, turnId: `t-${id}`, role: seq % 2 === 0 ? 'user' : 'assistant', text: `words of ${id}`, status: 'complete',
        tokenEstimate: tokens, createdAt: NOW, ...(parentId === undefined ? {} : { parentId }),
      });
    add('u0', 0, 20);
    add('a1', 1, 30);
    add('a1-huge', 2, 300_000, 'u0');
    add('u2-huge', 3, 200_000);
    chooseBranch(setup.db, 'a1');
    return setup;
  }

  it('measures only the live path: the huge sibling branch does not count', async () => {
    const { db, engine } = branched();
    const shown = await engine.contextStatus('c1', {});
    const alone = scriptedEngine();
    insertMessage(alone.db, { id: 'u0', conversationId: 'c1', seq: 0, turnId: 't', role: 'user', text: 'words of u0', status: 'complete', tokenEstimate: 20, createdAt: NOW });
    insertMessage(alone.db, { id: 'a1', conversationId: 'c1', seq: 1, turnId: 't', role: 'assistant', text: 'words of a1', status: 'complete', tokenEstimate: 30, createdAt: NOW });
    expect(shown).toEqual(await alone.engine.contextStatus('c1', {}));
    expect(shown).toMatchObject({ level: 'ok', outsideWindow: 0 });
    const preview = await engine.previewRequest('c1', { message: 'Next' });
    expect(preview.body).not.toContain('huge');
    expect(JSON.parse(preview.body).messages.map((message: { content: string }) => message.content).slice(1)).toEqual(['words of u0', 'words of a1', 'Next']);

    chooseBranch(db, 'a1-huge');
    expect(await engine.contextStatus('c1', {})).toMatchObject({ level: 'emergency', outsideWindow: 2 });
  });

  it("forgets a size refusal of another branch: the branch shown is not compacted first for it", async () => {
    const { db, engine } = branched();
    chooseBranch(db, 'a1-huge');
    // Kimi refused the huge branch for its size: the conversation is full on Kimi, below the size it refused.
    saveBrainState(db, { conversationId: 'c1', brain: 'kimi', full: true, refused: { tokens: 250_000, model: 'kimi-k2.6' }, now: NOW });
    expect(await engine.contextStatus('c1', {})).toMatchObject({ full: true });
    chooseBranch(db, 'a1');
    expect(await engine.contextStatus('c1', {})).toMatchObject({ full: false, level: 'ok' });
    // The size Kimi refused still bounds every branch.
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: false, refusedTokens: 250_000 });
    expect((await engine.contextStatus('c1', {})).contextWindow).toBe(250_000);
  });

  it('keeps a size refusal when the path left behind differs only by a reply that failed', async () => {
    const { db, engine } = branched();
    insertMessage(db, { id: 'a2', conversationId: 'c1', seq: 4, turnId: 't-a2', role: 'user', text: 'More', status: 'complete', tokenEstimate: 5, createdAt: NOW });
    insertMessage(db, { id: 'a3', conversationId: 'c1', seq: 5, turnId: 't-a3', role: 'assistant', text: '', status: 'failed', createdAt: NOW });
    saveBrainState(db, { conversationId: 'c1', brain: 'kimi', full: true, refused: { tokens: 1_000, model: 'kimi-k2.6' }, now: NOW });
    // Answered again beside the refused reply: the same history, so it still compacts first.
    insertMessage(db, { id: 'a3b', conversationId: 'c1', seq: 6, turnId: 't-a3b', role: 'assistant', text: '', status: 'streaming', parentId: 'a2', createdAt: NOW });
    expect(currentLeafId(db, 'c1')).toBe('a3b');
    expect(await engine.contextStatus('c1', {})).toMatchObject({ full: true });
  });
});
