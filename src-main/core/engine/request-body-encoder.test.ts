import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { buildFromParts } from '../replay/request-parts';
import { newId } from '../store/clock';
import { insertInvocation } from '../store/invocations';
import { insertMessage, listLiveMessages } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { LONG_HISTORY_ROWS } from './event-loop-turn';
import { createRequestBodyEncoder, requestBodyWorkerStarter, WorkerBodyEncoder, type BodyJob } from './request-body-encoder';
import { scriptedEngine } from './testing';
import { readTurnRequestParts } from './turn-request';

const NOW = '2026-12-01T10:00:00.000Z';

/** `withCalls`: a tool call on every third reply. */
function seedExchanges(db: AppDatabase, exchanges: number, brain: BrainId, withCalls = false): void {
  for (let index = 0; index < exchanges; index += 1) {
    const turnId = newId();
    insertMessage(db, { id: newId(), conversationId: 'c1', seq: index * 2, turnId, role: 'user', text: `question ${index}: 오늘 회의는 세 시 🙂 "quoted" \\`, status: 'complete', createdAt: NOW });
    const reply = insertMessage(db, {
      id: newId(), conversationId: 'c1', seq: index * 2 + 1, turnId, role: 'assistant', text: `answer ${index}\n\n\`\`\`ts\nconst a = "b";\n\`\`\``, status: 'complete',
      brain, modelRequested: BRAINS[brain].defaultModel, createdAt: NOW,
    });
    if (!withCalls || index % 3 !== 0) continue;
    insertInvocation(db, {
      id: newId(), turnId, messageId: reply.id, seq: 0, kind: 'tool', server: null, tool: 'current_time',
      providerCallId: `call_${index}`, input: { zone: 'Asia/Seoul' }, output: `2026-12-01 19:${String(index % 60).padStart(2, '0')}`, status: 'ok', opaque: null, startedAt: NOW, endedAt: NOW,
    });
  }
}

const encoder = createRequestBodyEncoder()!;
afterAll(() => encoder.dispose());

const decoded = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);
const finish = { type: 'finish', reason: 'stop', rawReason: 'stop' } as const;

describe('a request body built in the worker', () => {
  it.each(['claude', 'kimi', 'codex', 'gemini', 'ollama'] as const)('%s: is byte for byte what this thread builds and serialises', async (brain) => {
    const { db } = scriptedEngine({ brain });
    // Over two pages of rows, with calls.
    seedExchanges(db, LONG_HISTORY_ROWS + 20, brain, true);
    const target = { brain, model: BRAINS[brain].defaultModel, reasoningLevel: 'medium' } as const;
    const request = { conversationId: 'c1', target, rows: listLiveMessages(db, 'c1'), tools: [], skills: [], maxOutputTokens: 4096, contextWindow: 200_000 };
    const parts = await readTurnRequestParts(db, request);
    const { body } = buildFromParts(parts);
    const encoded = await encoder.encode(parts);
    expect(decoded(encoded.json)).toBe(JSON.stringify(body));
    expect(encoded.fields).toEqual(Object.fromEntries(Object.entries(body).filter(([, value]) => !Array.isArray(value))));
  });

  it('carries a long history\'s turn, and leaves a short one to this thread', async () => {
    for (const [exchanges, inWorker] of [[3, false], [LONG_HISTORY_ROWS / 2, true]] as const) {
      const { db, scripted, engine } = scriptedEngine({ brain: 'claude', requestBodies: encoder });
      seedExchanges(db, exchanges, 'claude');
      const started = engine.send('c1', 'And now?');
      await vi.waitFor(() => expect(scripted.calls).toHaveLength(1));
      scripted.push({ type: 'text-delta', text: 'Done.' }, finish, 'end');
      expect(await started.done).toMatchObject({ status: 'complete', text: 'Done.' });
      const [call] = scripted.calls;
      if (!inWorker) {
        expect(call!.encodedBody).toBeUndefined();
        continue;
      }
      const sent = JSON.parse(decoded(call!.encodedBody)) as { messages: unknown[]; model: string };
      expect(sent.messages).toHaveLength(exchanges * 2 + 1);
      expect(call!.body).toEqual({ model: 'claude-sonnet-4-6', max_tokens: expect.any(Number), stream: true, ...Object.fromEntries(Object.entries(sent).filter(([, value]) => !Array.isArray(value))) });
    }
  });

  it('builds on this thread when the worker is gone, and the turn goes on', async () => {
    const closed = createRequestBodyEncoder()!;
    await closed.dispose();
    const { db, scripted, engine } = scriptedEngine({ brain: 'claude', requestBodies: closed });
    seedExchanges(db, LONG_HISTORY_ROWS / 2, 'claude');
    const started = engine.send('c1', 'And now?');
    await vi.waitFor(() => expect(scripted.calls).toHaveLength(1));
    scripted.push({ type: 'text-delta', text: 'Done.' }, finish, 'end');
    expect(await started.done).toMatchObject({ status: 'complete', text: 'Done.' });
    expect(scripted.calls[0]!.encodedBody).toBeUndefined();
    expect(scripted.calls[0]!.body.messages).toHaveLength(LONG_HISTORY_ROWS + 1);
  });
});

describe('a job\'s parts on their way to the worker', () => {
  it('cross a page of rows at a time, each page with its rows\' calls, then the rest', async () => {
    let worker: Worker | null = null;
    const bodies = new WorkerBodyEncoder(() => (worker = requestBodyWorkerStarter()!()));
    const { db } = scriptedEngine({ brain: 'claude' });
    seedExchanges(db, LONG_HISTORY_ROWS + 20, 'claude', true);
    const target = { brain: 'claude', model: 'claude-sonnet-4-6', reasoningLevel: 'medium' } as const;
    const parts = await readTurnRequestParts(db, { conversationId: 'c1', target, rows: listLiveMessages(db, 'c1'), tools: [], skills: [], maxOutputTokens: 4096, contextWindow: 200_000 });
    const posted: BodyJob[] = [];
    const encoding = bodies.encode(parts);
    const post = vi.spyOn(worker!, 'postMessage').mockImplementation(function (this: Worker, job: BodyJob) {
      posted.push(job);
      return Worker.prototype.postMessage.call(this, job);
    });
    expect(decoded((await encoding).json)).toBe(JSON.stringify(buildFromParts(parts).body));
    post.mockRestore();
    await bodies.dispose();
    // The first page went out before the spy was set; the pages after it and the rest came in their own messages.
    expect(posted.map((job) => (job.type === 'rows' ? job.rows.length : job.type))).toEqual([LONG_HISTORY_ROWS, 40, 'build']);
    const lastPage = posted[1] as Extract<BodyJob, { type: 'rows' }>;
    expect([...lastPage.invocations.keys()]).toEqual(lastPage.rows.filter((row) => parts.invocations.has(row.id)).map((row) => row.id));
    expect(posted[2]).toMatchObject({ parts: { rows: [], invocations: new Map() } });
  });
});

describe('the worker\'s life', () => {
  it('ends the worker on dispose, and refuses jobs after', async () => {
    const workers: Worker[] = [];
    const start = (): Worker => {
      const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {});', { eval: true });
      workers.push(worker);
      return worker;
    };
    const bodies = new WorkerBodyEncoder(start);
    const { db } = scriptedEngine({ brain: 'claude' });
    const parts = await readTurnRequestParts(db, {
      conversationId: 'c1', target: { brain: 'claude', model: 'claude-sonnet-4-6', reasoningLevel: 'medium' }, rows: [], tools: [], skills: [], maxOutputTokens: 1, contextWindow: 200_000,
    });
    const refused = expect(bodies.encode(parts)).rejects.toThrow('The request body worker is closed.');
    const exited = new Promise<number>((resolve) => workers[0]!.once('exit', resolve));
    await bodies.dispose();
    await refused;
    expect(typeof (await exited)).toBe('number');
    await expect(bodies.encode(parts)).rejects.toThrow('The request body worker is closed.');
    expect(workers).toHaveLength(1);
  });

  it('fails the jobs of a worker that stopped, and starts a new one for the next', async () => {
    let started = 0;
    const bodies = new WorkerBodyEncoder(() => {
      started += 1;
      return new Worker('process.exit(3)', { eval: true });
    });
    const { db } = scriptedEngine({ brain: 'claude' });
    const parts = await readTurnRequestParts(db, {
      conversationId: 'c1', target: { brain: 'claude', model: 'claude-sonnet-4-6', reasoningLevel: 'medium' }, rows: [], tools: [], skills: [], maxOutputTokens: 1, contextWindow: 200_000,
    });
    await expect(bodies.encode(parts)).rejects.toThrow('The request body worker stopped (exit code 3).');
    await expect(bodies.encode(parts)).rejects.toThrow('The request body worker stopped (exit code 3).');
    expect(started).toBe(2);
    await bodies.dispose();
  });
});
