import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../store/test-database';
import { insertConversation } from '../store/conversations';
import { countMessagesByConversation } from '../store/messages';
import { scriptedEngine } from './testing';
import { writeReportedModels } from '../store/provider-models';
import { reportedModel } from '../../../src-shared/models/reported';

describe("a model's life cycle at the turn", () => {
  it('refuses a shut-down model before anything is stored or sent, naming its replacement', async () => {
    const db = openTestDatabase();
    insertConversation(db, { id: 'retired', title: 'Old pick', brain: 'gemini', model: 'gemini-3-pro-preview', now: '2026-01-01T00:00:00.000Z' });
    const { engine, scripted } = scriptedEngine({ db, brain: 'gemini' });
    expect(() => engine.send('retired', 'Hello')).toThrow(
      expect.objectContaining({
        code: 'model-retired',
        message: "Gemini's model gemini-3-pro-preview was shut down on 9 March 2026, so Anybrain sends it nothing. Pick gemini-3.1-pro-preview in the model picker instead.",
      }),
    );
    expect(countMessagesByConversation(db).get('retired') ?? 0).toBe(0);
    expect(scripted.calls).toEqual([]);
  });

  it("names a deprecated model's retirement in the request preview, and still builds the request", async () => {
    const db = openTestDatabase();
    insertConversation(db, { id: 'deprecated', title: 'Old pick', brain: 'claude', model: 'claude-opus-4-5', now: '2026-01-01T00:00:00.000Z' });
    const { engine } = scriptedEngine({ db, brain: 'claude' });
    const preview = await engine.previewRequest('deprecated', { message: 'Hello' });
    expect(preview.model).toBe('claude-opus-4-5');
    expect(preview.warnings[0]).toMatch(/^Claude's model claude-opus-4-5 is deprecated and (retires|was due to retire) on 22 January 2027/);
    expect(JSON.parse(preview.body)).toMatchObject({ model: 'claude-opus-4-5' });
  });

  it("takes the provider's word over the catalogue: a model its list calls retired is refused, one it deprecates is noted", async () => {
    const db = openTestDatabase();
    const baseUrl = 'http://127.0.0.1:1/v1';
    writeReportedModels(db, {
      brain: 'claude',
      baseUrl,
      fetchedAt: '2026-12-07T09:00:00.000Z',
      models: [
        reportedModel('claude-nova-5', { lifecycle: 'retired', retiresAt: '2026-12-01' }),
        reportedModel('claude-nova-6', { lifecycle: 'deprecated', retiresAt: '2027-06-01' }),
      ],
    });
    insertConversation(db, { id: 'retired', title: 'Gone', brain: 'claude', model: 'claude-nova-5', now: '2026-01-01T00:00:00.000Z' });
    insertConversation(db, { id: 'deprecated', title: 'Going', brain: 'claude', model: 'claude-nova-6', now: '2026-01-01T00:00:00.000Z' });
    const { engine, scripted } = scriptedEngine({ db, brain: 'claude', baseUrl });
    expect(() => engine.send('retired', 'Hello')).toThrow(
      expect.objectContaining({
        code: 'model-retired',
        message: "Claude's model claude-nova-5 was shut down on 1 December 2026, so Anybrain sends it nothing. Pick another model in the model picker.",
      }),
    );
    expect(scripted.calls).toEqual([]);
    const preview = await engine.previewRequest('deprecated', { message: 'Hello' });
    expect(preview.warnings[0]).toBe("Claude's model claude-nova-6 is deprecated and retires on 1 June 2027. Pick another model in the model picker.");
  });
});
