import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../store/test-database';
import { insertConversation } from '../store/conversations';
import { countMessagesByConversation } from '../store/messages';
import { scriptedEngine } from './testing';

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
});
