/**
 * The store refusing writes: another process holding the data folder's write lock past the busy wait, a disk that
 * cannot take more pages (`PRAGMA max_page_count` at the current size), and a second process asking for a turn in a
 * conversation another one answers in. Each command answers an error a person can act on, never ok without its row,
 * and a reply the store refuses ends with what was stored before, without a throw reaching the event loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ConversationView } from '../../../src-shared/api';
import { DATABASE_FILE, openCore, type OpenedCore } from '../app';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { holdWriteLock } from '../store/testing/held-write-lock';
import { ANSWERING_ELSEWHERE_MESSAGE } from '../store/turn-leases';
import { replyStoreRefusalMessage, storeRefusalMessage } from '../store/write-failure';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Steps a reply waits at, released by the test. */
let release: () => void = () => undefined;
let beforeLongText: Promise<void> = Promise.resolve();

async function* pausingBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  void call;
  yield { type: 'text-delta', text: 'Stored first. ' };
  await beforeLongText;
  // Far more than the pages left: the checkpoint that stores it needs new ones.
  yield { type: 'text-delta', text: 'x'.repeat(400_000) };
  await pause(1_000);
  yield { type: 'finish', reason: 'stop', rawReason: 'stop' };
}

function open(
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-store-faults-')),
  options: { stream?: (call: ProviderCall) => AsyncIterable<StreamPart>; busyBudgetMs?: number } = {},
): OpenedCore & { dataDir: string } {
  const core = openCore({ dataDir, env: { ANTHROPIC_API_KEY: 'k' }, stream: pausingBrain, exportArchives: 'in-process', ...options });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  return Object.assign(core, { dataDir });
}

async function conversation(core: OpenedCore): Promise<ConversationView> {
  const created = await core.dispatch('createConversation', { title: 'Faults', brain: 'claude' });
  if (!created.ok) throw new Error(created.error.message);
  return created.value as ConversationView;
}

describe('another process holding the write lock', () => {
  it('answers each write command that it could not save, and stores nothing', async () => {
    // Tried again for 100 ms instead of 5 s, so the test does not wait it out for every command.
    const core = open(undefined, { busyBudgetMs: 100 });
    const { id } = await conversation(core);
    const other = new Database(join(core.dataDir, DATABASE_FILE));
    other.exec('BEGIN IMMEDIATE');
    const busy = { ok: false, error: { code: 'storage-busy', message: storeRefusalMessage('storage-busy') } };
    expect(await core.dispatch('createConversation', { title: 'Second' })).toEqual(busy);
    expect(await core.dispatch('renameConversation', { id, title: 'Renamed' })).toEqual(busy);
    expect(await core.dispatch('addMemory', { text: 'likes tea' })).toEqual(busy);
    expect(await core.dispatch('send', { conversationId: id, text: 'Hello' })).toEqual(busy);
    other.exec('ROLLBACK');
    other.close();
    expect(core.db.$client.prepare('SELECT title FROM conversations').pluck().all()).toEqual(['Faults']);
    expect(core.db.$client.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(0);
    expect(core.db.$client.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
  });
});

/** A reply of 40 words, one every 50 ms: two seconds of streaming. */
async function* steadyBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  void call;
  for (let word = 0; word < 40; word += 1) {
    yield { type: 'text-delta', text: `word${word} ` };
    await pause(50);
  }
  yield { type: 'finish', reason: 'stop', rawReason: 'stop' };
}

describe('another process holding the write lock while a reply streams', () => {
  it('never stalls the main loop, answers the window meanwhile, and completes the reply and the commands once the lock is let go', async () => {
    const core = open(undefined, { stream: steadyBrain });
    const { id } = await conversation(core);
    const events: ApiEvent[] = [];
    core.onEvent((event) => events.push(event));
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    expect((await core.dispatch('send', { conversationId: id, text: 'Count for me' })).ok).toBe(true);
    await pause(300);
    // Taken mid-reply and kept past its end, shorter than the 5 s a write is tried for: the checkpoints, a command and
    // the reply's end all find the folder busy.
    const other = holdWriteLock(join(core.dataDir, DATABASE_FILE), 3_500);
    await other.held;
    const listed = await core.dispatch('listConversations', {});
    expect(listed.ok).toBe(true);
    const renamed = await core.dispatch('renameConversation', { id, title: 'Counting' });
    await core.engine.settled(id);
    await other.released;
    stalls.disable();
    const longestStallMs = stalls.max / 1e6;
    console.log(`longest main-loop stall while another connection held the write lock: ${longestStallMs.toFixed(1)} ms`);
    expect(renamed.ok).toBe(true);
    const ends = events.filter((event) => event.type === 'turn-done' || event.type === 'turn-failed');
    const words = Array.from({ length: 40 }, (_, word) => `word${word} `).join('');
    expect(ends.map((event) => (event.type === 'turn-done' ? [event.type, event.message.status, event.message.text] : [event.type, event.message.error]))).toEqual([
      ['turn-done', 'complete', words],
    ]);
    expect(core.db.$client.prepare("SELECT status, text FROM messages WHERE role = 'assistant'").get()).toEqual({ status: 'complete', text: words });
    expect(core.db.$client.prepare('SELECT title FROM conversations').pluck().get()).toBe('Counting');
    // A loose freeze bound: waiting for the lock on this thread stalled it for the whole 5 s busy wait.
    expect(longestStallMs).toBeLessThan(1_000);
  });

  it('ends the reply with the busy sentence when the other writer outlasts the budget, keeping what was stored', async () => {
    const core = open(undefined, { stream: steadyBrain, busyBudgetMs: 200 });
    const { id } = await conversation(core);
    const events: ApiEvent[] = [];
    core.onEvent((event) => events.push(event));
    expect((await core.dispatch('send', { conversationId: id, text: 'Count for me' })).ok).toBe(true);
    await pause(500);
    const other = holdWriteLock(join(core.dataDir, DATABASE_FILE), 3_000);
    await other.held;
    await core.engine.settled(id);
    const failed = events.find((event) => event.type === 'turn-failed');
    expect(failed?.type === 'turn-failed' ? failed.message.error : null).toEqual({ code: 'storage-busy', message: replyStoreRefusalMessage('storage-busy'), retryable: true });
    await other.released;
    const stored = core.db.$client.prepare("SELECT text FROM messages WHERE role = 'assistant'").pluck().get() as string;
    expect(stored.startsWith('word0 word1 ')).toBe(true);
  });
});

describe('a full disk while a reply streams', () => {
  it('ends the reply with the disk-full sentence and keeps the text stored before', async () => {
    const core = open();
    const { id } = await conversation(core);
    beforeLongText = new Promise((resolve) => (release = resolve));
    const events: ApiEvent[] = [];
    core.onEvent((event) => events.push(event));
    const sent = await core.dispatch('send', { conversationId: id, text: 'Write a lot' });
    expect(sent.ok).toBe(true);
    // The first words are checkpointed (every 250 ms) before the disk fills.
    await expect.poll(() => core.db.$client.prepare("SELECT text FROM messages WHERE role = 'assistant'").pluck().get(), { timeout: 5_000 }).toBe('Stored first. ');
    core.db.$client.pragma(`max_page_count = ${core.db.$client.pragma('page_count', { simple: true }) as number}`);
    release();
    await core.engine.settled(id);
    const failed = events.find((event) => event.type === 'turn-failed');
    expect(failed?.type === 'turn-failed' ? [failed.message.text, failed.message.error] : null).toEqual([
      'Stored first. ',
      { code: 'disk-full', message: replyStoreRefusalMessage('disk-full'), retryable: true },
    ]);
    expect(core.db.$client.prepare("SELECT text FROM messages WHERE role = 'assistant'").pluck().get()).toBe('Stored first. ');
  });

  it('ends the row as the window was told once the disk has room again, while the process runs', async () => {
    const core = open();
    const { id } = await conversation(core);
    beforeLongText = new Promise((resolve) => (release = resolve));
    expect((await core.dispatch('send', { conversationId: id, text: 'Write a lot' })).ok).toBe(true);
    const reply = () => core.db.$client.prepare("SELECT status, text, error FROM messages WHERE role = 'assistant'").get() as { status: string; text: string; error: string | null };
    await expect.poll(() => reply().text, { timeout: 5_000 }).toBe('Stored first. ');
    const sqlite = core.db.$client;
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
    release();
    await core.engine.settled(id);
    // The end could not be written: the row says streaming while the window says failed.
    expect(reply().status).toBe('streaming');
    const health = async () => {
      const answered = await core.dispatch('getDataHealth', {});
      return answered.ok ? (answered.value as { streamingReplies: number }).streamingReplies : answered.error.message;
    };
    // doctor says so meanwhile.
    expect(await health()).toBe(1);
    sqlite.pragma('max_page_count = 1073741823');
    await expect.poll(() => reply().status, { timeout: 5_000 }).toBe('failed');
    expect(reply()).toEqual({
      status: 'failed',
      text: 'Stored first. ',
      error: JSON.stringify({ code: 'disk-full', message: replyStoreRefusalMessage('disk-full'), retryable: true }),
    });
    expect(await health()).toBe(0);
    // Its lease went with it: the conversation takes a new turn.
    expect(sqlite.prepare('SELECT count(*) FROM turn_leases').pluck().get()).toBe(0);
  });
});

describe('two processes on one data folder', () => {
  it('refuses a turn in a conversation another process answers in, and lets it go when that reply ends', async () => {
    const first = open();
    const second = open(first.dataDir);
    const { id } = await conversation(first);
    beforeLongText = new Promise((resolve) => (release = resolve));
    expect((await first.dispatch('send', { conversationId: id, text: 'Take your time' })).ok).toBe(true);
    expect(await second.dispatch('send', { conversationId: id, text: 'Me too' })).toEqual({
      ok: false,
      error: { code: 'answering-elsewhere', message: ANSWERING_ELSEWHERE_MESSAGE },
    });
    release();
    await first.engine.settled(id);
    expect((await second.dispatch('send', { conversationId: id, text: 'Now me' })).ok).toBe(true);
    await second.engine.settled(id);
    expect(first.db.$client.prepare('SELECT count(*) FROM turn_leases').pluck().get()).toBe(0);
  });
});
