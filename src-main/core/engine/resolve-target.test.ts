import { describe, expect, it } from 'vitest';
import type { ReasoningLevel } from '../../../src-shared/brains';
import { conversationCommands } from '../commands/conversations';
import { insertConversation, updateConversation } from '../store/conversations';
import type { AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';
import { resolveTarget } from './resolve-target';
import type { TurnEngine } from './turn-engine';

function conversationOn(brain: 'kimi' | 'ollama' | 'claude', model: string | null, reasoningLevel: ReasoningLevel | null): AppDatabase {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'T', brain, model, now: '2026-01-01T00:00:00.000Z' });
  updateConversation(db, 'c1', { reasoningLevel });
  return db;
}

describe('resolveTarget', () => {
  it("runs a conversation without a pick at its model's own default level", () => {
    // Kimi K2.6 thinks unless told not to.
    expect(resolveTarget(conversationOn('kimi', null, null), 'c1')).toEqual({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high' });
    expect(resolveTarget(conversationOn('claude', null, null), 'c1')).toEqual({ brain: 'claude', model: 'claude-sonnet-5-5', reasoningLevel: 'high' });
  });

  it('resolves the pick against the model it goes to', () => {
    const db = conversationOn('ollama', 'qwen3', 'high');
    expect(resolveTarget(db, 'c1')).toEqual({ brain: 'ollama', model: 'qwen3', reasoningLevel: 'high' });
    // A model of the same brain without thinking never gets it, whatever the pick.
    expect(resolveTarget(db, 'c1', { model: 'llama3.3' })).toEqual({ brain: 'ollama', model: 'llama3.3', reasoningLevel: 'off' });
  });

  it("does not carry a level picked on one brain to another: that brain's model runs at its own default", () => {
    const db = conversationOn('claude', null, 'high');
    expect(resolveTarget(db, 'c1', { brain: 'ollama', model: 'llama3.3' })).toEqual({ brain: 'ollama', model: 'llama3.3', reasoningLevel: 'off' });
    expect(resolveTarget(db, 'c1', { brain: 'kimi' })).toEqual({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high' });
    expect(resolveTarget(db, 'c1', { brain: 'kimi', reasoningLevel: 'off' })).toEqual({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'off' });
  });
});

describe('setConversationBrain', () => {
  const commands = (db: AppDatabase) => conversationCommands({ db, dataDir: '', emit: () => {}, engine: {} as TurnEngine });

  it('keeps the reasoning pick on the same brain and forgets it on another, as it does the model', () => {
    const db = conversationOn('claude', 'claude-opus-4-6', 'high');
    const kept = commands(db).setConversationBrain({ id: 'c1', brain: 'claude', model: 'claude-haiku-4-5' });
    expect(kept).toMatchObject({ brain: 'claude', model: 'claude-haiku-4-5', reasoningLevel: 'high' });
    const switched = commands(db).setConversationBrain({ id: 'c1', brain: 'ollama' });
    expect(switched).toMatchObject({ brain: 'ollama', model: null, reasoningLevel: null });
    expect(resolveTarget(db, 'c1')).toEqual({ brain: 'ollama', model: 'qwen3', reasoningLevel: 'high' });
    const picked = commands(db).setConversationBrain({ id: 'c1', brain: 'kimi', reasoningLevel: 'off' });
    expect(picked).toMatchObject({ brain: 'kimi', model: null, reasoningLevel: 'off' });
  });
});
