/**
 * ModelReports: when a brain's list is asked for again, what is stored, and that a closing host waits for nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainId } from '../../src-shared/brains';
import { reportedModel } from '../../src-shared/models/reported';
import type { ResolvedConnection } from './brain-connection';
import { MODEL_LIST_MAX_AGE_MS, ModelReports } from './model-reports';
import type { ModelListAnswer, ModelListRequest } from './providers/list-models';
import type { AppDatabase } from './store/open';
import { readReportedModels, writeReportedModels } from './store/provider-models';
import { openTestDatabase } from './store/test-database';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const disposables: ModelReports[] = [];
afterEach(async () => {
  for (const reports of disposables.splice(0)) await reports.dispose();
});

function connection(brain: BrainId, apiKey: string | null): ResolvedConnection {
  return { baseUrl: `https://${brain}.example`, apiKey, keySource: apiKey === null ? 'none' : 'environment', baseUrlOverride: null, problem: null };
}

function reportsWith(db: AppDatabase, keys: Partial<Record<BrainId, string>>, list: (request: ModelListRequest) => Promise<ModelListAnswer>) {
  const reports = new ModelReports({
    db,
    connectionOf: (brain) => connection(brain, keys[brain] ?? null),
    now: () => NOW,
    listModels: list,
    ollamaShow: () => Promise.resolve({ contextWindow: null, trainedContextLength: 32_768, capabilities: ['completion'] }),
  });
  disposables.push(reports);
  return reports;
}

describe('ModelReports', () => {
  it('asks again only the brains in use whose answer is missing, older than a day, or from another base URL', async () => {
    const db = openTestDatabase();
    const asked: string[] = [];
    const reports = reportsWith(db, { claude: 'k1', kimi: 'k2', gemini: 'k3', grok: 'k4' }, (request) => {
      asked.push(request.baseUrl);
      return Promise.resolve({ ok: true, models: [reportedModel('m')] });
    });
    const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
    writeReportedModels(db, { brain: 'kimi', baseUrl: 'https://kimi.example', fetchedAt: hoursAgo(23), models: [] });
    writeReportedModels(db, { brain: 'gemini', baseUrl: 'https://gemini.example', fetchedAt: new Date(NOW.getTime() - MODEL_LIST_MAX_AGE_MS).toISOString(), models: [] });
    writeReportedModels(db, { brain: 'grok', baseUrl: 'https://old-proxy.example', fetchedAt: hoursAgo(1), models: [] });
    // Ollama needs no key: it is in use once it has answered.
    writeReportedModels(db, { brain: 'ollama', baseUrl: 'https://ollama.example', fetchedAt: hoursAgo(30), models: [] });
    reports.refreshStale();
    await reports.idle();
    expect(asked.sort()).toEqual(['https://claude.example', 'https://gemini.example', 'https://grok.example', 'https://ollama.example']);
    expect(readReportedModels(db, 'claude')).toEqual({ brain: 'claude', baseUrl: 'https://claude.example', fetchedAt: NOW.toISOString(), models: [reportedModel('m')] });
    expect(readReportedModels(db, 'ollama')?.models).toEqual([reportedModel('m', { contextWindow: 32_768, images: false, thinking: false })]);
    expect(readReportedModels(db, 'kimi')?.fetchedAt).toBe(hoursAgo(23));
  });

  it('keeps the last answer when the provider fails, and sends nothing without a key', async () => {
    const db = openTestDatabase();
    const reports = reportsWith(db, { claude: 'k1' }, () => Promise.resolve({ ok: false, answered: true, message: 'HTTP 529: Overloaded' }));
    writeReportedModels(db, { brain: 'claude', baseUrl: 'https://claude.example', fetchedAt: '2026-12-01T00:00:00.000Z', models: [reportedModel('kept')] });
    expect(await reports.refresh('claude')).toEqual({ ok: false, answered: true, sent: true, message: 'HTTP 529: Overloaded' });
    expect(readReportedModels(db, 'claude')?.models).toEqual([reportedModel('kept')]);
    expect(await reports.refresh('kimi')).toEqual({ ok: false, answered: false, sent: false, message: 'No Kimi key yet: add one, or set MOONSHOT_API_KEY. Nothing was sent.' });
  });

  it('asks once per brain at a time, and a closing host cuts off an ask in flight without storing it', async () => {
    const db = openTestDatabase();
    let calls = 0;
    const reports = reportsWith(db, { claude: 'k1' }, (request) => {
      calls += 1;
      return new Promise((resolve) => request.signal?.addEventListener('abort', () => resolve({ ok: false, answered: false, message: 'aborted' })));
    });
    const first = reports.refresh('claude');
    expect(reports.refresh('claude')).toBe(first);
    await reports.dispose();
    expect(await first).toMatchObject({ ok: false });
    expect(calls).toBe(1);
    expect(readReportedModels(db, 'claude')).toBeNull();
  });
});
