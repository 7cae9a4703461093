/**
 * The providers' stored model lists: one row per brain, replaced whole, read back leniently; and migration 0010, which
 * adds the table to a database of the version before it.
 */
import { describe, expect, it } from 'vitest';
import { reportedModel } from '../../../src-shared/models/reported';
import { forgetReportedModels, readAllReportedModels, readReportedModels, writeReportedModels } from './provider-models';
import { openTestDatabase } from './test-database';
import { migrateOneConversationPast } from './testing/migration-step';

const nova = reportedModel('claude-nova-6', { displayName: 'Claude Nova 6', contextWindow: 640_000, outputLimit: 96_000, images: true, lifecycle: 'active' });

describe('provider model lists', () => {
  it("keeps one answer per brain, the newest replacing the last, and forgets it on request", () => {
    const db = openTestDatabase();
    expect(readReportedModels(db, 'claude')).toBeNull();
    writeReportedModels(db, { brain: 'claude', baseUrl: 'https://api.anthropic.com', fetchedAt: '2026-12-06T10:00:00.000Z', models: [reportedModel('claude-sonnet-4-6')] });
    writeReportedModels(db, { brain: 'claude', baseUrl: 'https://api.anthropic.com', fetchedAt: '2026-12-07T10:00:00.000Z', models: [nova] });
    writeReportedModels(db, { brain: 'ollama', baseUrl: 'http://127.0.0.1:11434', fetchedAt: '2026-12-07T10:00:00.000Z', models: [] });
    expect(readReportedModels(db, 'claude')).toEqual({ brain: 'claude', baseUrl: 'https://api.anthropic.com', fetchedAt: '2026-12-07T10:00:00.000Z', models: [nova] });
    expect(Object.keys(readAllReportedModels(db))).toEqual(['claude', 'ollama']);
    forgetReportedModels(db, 'claude');
    expect(readReportedModels(db, 'claude')).toBeNull();
    db.$client.close();
  });

  it('reads back only what has the shape it was written in: a damaged field is dropped, a damaged entry skipped', () => {
    const db = openTestDatabase();
    const stored = [{ id: 'kimi-k3', contextWindow: '1048576', outputLimit: 32_768, images: 'yes', lifecycle: 'sunset', chats: false }, { id: 7 }, 'kimi-k2.6', null];
    db.$client.prepare("INSERT INTO provider_models (brain, base_url, fetched_at, models) VALUES ('kimi', 'https://api.moonshot.ai/v1', '2026-12-07T10:00:00.000Z', ?)").run(JSON.stringify(stored));
    expect(readReportedModels(db, 'kimi')?.models).toEqual([reportedModel('kimi-k3', { outputLimit: 32_768, chats: false })]);
    db.$client.prepare("UPDATE provider_models SET models = '{\"not\": \"a list\"}'").run();
    expect(readReportedModels(db, 'kimi')).toBeNull();
    db.$client.close();
  });
});

describe('migration 0010_provider_models', () => {
  it('adds an empty provider_models table to a database of the version before it, keeping every row', () => {
    const migrated = migrateOneConversationPast('0010_provider_models');
    expect(migrated.columnsOf('provider_models')).toEqual([
      ['brain', 1, 1],
      ['base_url', 1, 0],
      ['fetched_at', 1, 0],
      ['models', 1, 0],
    ]);
    expect(migrated.db.$client.prepare('SELECT count(*) FROM provider_models').pluck().get()).toBe(0);
    migrated.close();
  });
});
