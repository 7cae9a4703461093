/** Test support for the engine: a provider stream the test feeds part by part, and an engine over it. */
import type { DiskConfirmation } from '../outside/disk-confirmation';
import type { ApiEvent } from '../../../src-shared/api';
import type { BrainId } from '../../../src-shared/brains';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { newId } from '../store/clock';
import { insertConversation } from '../store/conversations';
import { insertMessage } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';
import type { FakeBrains } from '../../../e2e/fake-brains/server';
import { streamProvider } from '../providers';
import type { RequestBodyEncoder } from './request-body-encoder';
import { TurnEngine, type TurnEngineDependencies } from './turn-engine';
import type { TurnToolbox } from './turn-toolbox';

/** A provider stream the test feeds part by part. */
export class ScriptedStream {
  readonly calls: ProviderCall[] = [];
  private queue: Array<StreamPart | 'end'> = [];
  private wake: (() => void) | null = null;

  push(...parts: Array<StreamPart | 'end'>): void {
    this.queue.push(...parts);
    this.wake?.();
  }

  readonly stream = (call: ProviderCall): AsyncIterable<StreamPart> => {
    this.calls.push(call);
    return this.parts(call.signal);
  };

  private async *parts(signal: AbortSignal): AsyncIterable<StreamPart> {
    for (;;) {
      const next = this.queue.shift();
      if (next === undefined) {
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        continue;
      }
      if (next === 'end') return;
      yield next;
    }
  }
}


export interface ScriptedEngineOptions {
  readonly brain?: BrainId;
  readonly title?: string;
  readonly apiKey?: string | null;
  readonly baseUrl?: string;
  readonly toolbox?: TurnToolbox;
  /** The engine's clock; a fixed instant unless a test moves it. */
  readonly now?: () => Date;
  /** Builds long histories' bodies off the main thread; absent, every body is built on the test's thread. */
  readonly requestBodies?: RequestBodyEncoder;
  /** A migrated store to run on; a fresh in-memory one when absent. */
  readonly db?: AppDatabase;
  /** Where a reply's end waits for the disk. */
  readonly disk?: DiskConfirmation;
}

/** An engine on a fresh in-memory store (or `options.db`) with conversation `c1`, its provider the scripted stream, its events kept. */
export function scriptedEngine(options: ScriptedEngineOptions = {}) {
  const db = options.db ?? openTestDatabase();
  insertConversation(db, { id: 'c1', title: options.title ?? 'New conversation', brain: options.brain ?? 'kimi', model: null, now: '2026-01-01T00:00:00.000Z' });
  const events: ApiEvent[] = [];
  const scripted = new ScriptedStream();
  const engine = new TurnEngine({
    db,
    emit: (event) => events.push(event),
    stream: scripted.stream,
    connectionFor: () => ({ baseUrl: options.baseUrl ?? 'http://127.0.0.1:1/v1', apiKey: options.apiKey === undefined ? 'test-key' : options.apiKey }),
    checkpointIntervalMs: 5,
    deltaIntervalMs: 1,
    now: options.now ?? (() => new Date('2026-11-30T11:00:00.000Z')),
    ...(options.toolbox ? { toolbox: options.toolbox } : {}),
    ...(options.requestBodies ? { requestBodies: options.requestBodies } : {}),
    ...(options.disk ? { disk: options.disk } : {}),
  });
  return { db, events, scripted, engine };
}

/**
 * An engine on a fresh in-memory store with conversation `c1` on `brain`, its providers the real adapters against the
 * fake brains, its events kept. `overrides` replace any dependency (a shorter idle limit, a faster checkpoint).
 */
export function engineOverFakeBrains(fake: FakeBrains, brain: BrainId, overrides: Partial<Omit<TurnEngineDependencies, 'db' | 'emit'>> = {}) {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'New conversation', brain, model: null, now: '2026-12-01T00:00:00.000Z' });
  const events: ApiEvent[] = [];
  const engine = new TurnEngine({
    db,
    emit: (event) => events.push(event),
    stream: streamProvider,
    connectionFor: (target) => ({ baseUrl: fake.baseUrlFor(target), apiKey: 'test-key' }),
    ...overrides,
  });
  return { db, events, engine };
}

/** Seeds conversation `c1` with `exchanges` user/assistant pairs of about `tokens` tokens each, the replies by `brain`. */
export function seedExchanges(db: AppDatabase, exchanges: number, tokens: number, brain: BrainId = 'claude', model = 'claude-sonnet-4-6'): void {
  const createdAt = '2026-12-01T10:00:00.000Z';
  for (let index = 0; index < exchanges; index += 1) {
    const turnId = newId();
    const words = (who: string) => `${who} ${index}: ${'lorem ipsum '.repeat(Math.max(1, Math.floor((tokens * 4) / 12)))}`;
    insertMessage(db, { id: newId(), conversationId: 'c1', seq: index * 2, turnId, role: 'user', text: words('question'), status: 'complete', createdAt });
    insertMessage(db, {
      id: newId(), conversationId: 'c1', seq: index * 2 + 1, turnId, role: 'assistant', text: words('answer'), status: 'complete',
      brain, modelRequested: model, createdAt,
    });
  }
}
