// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { ConversationHeader } from './ConversationHeader';

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({
    conversationsById: { c1: conversationFixture({ brain: 'kimi', model: null }) },
    conversationOrder: ['c1'],
  });
});

afterEach(cleanup);

describe('ConversationHeader', () => {
  it('offers all seven brains by id', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    const picker = view.getByTestId('brain-picker') as HTMLSelectElement;
    expect(picker.value).toBe('kimi');
    expect(Array.from(picker.options).map((option) => [option.value, option.textContent, option.disabled])).toEqual([
      ['claude', 'Claude', false],
      ['codex', 'Codex', false],
      ['kimi', 'Kimi', false],
      ['grok', 'Grok', false],
      ['glm', 'GLM', false],
      ['gemini', 'Gemini', false],
      ['ollama', 'Ollama', false],
    ]);
  });

  it('offers the brain models in the model picker, empty meaning the default', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    expect(input.value).toBe('');
    expect(input.placeholder).toBe('kimi-k2.6');
    expect(input.title).toBe("Any model id; empty uses Kimi's default, kimi-k2.6");
    const list = document.getElementById(input.getAttribute('list') ?? '');
    expect(Array.from(list?.querySelectorAll('option') ?? []).map((option) => option.value)).toEqual(['kimi-k2.6', 'kimi-k2.5']);
  });

  it('switches brain with the default model, and sets a typed model on Enter', async () => {
    const setConversationBrain = vi
      .fn<Api['setConversationBrain']>()
      .mockResolvedValueOnce(conversationFixture({ brain: 'glm', model: null }))
      .mockResolvedValueOnce(conversationFixture({ brain: 'glm', model: 'glm-4.7' }));
    installApi(fakeApi({ setConversationBrain }));
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.change(view.getByTestId('brain-picker'), { target: { value: 'glm' } });
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'glm', model: null });
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    expect(input.placeholder).toBe('glm-5.1');
    fireEvent.change(input, { target: { value: ' glm-4.7 ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'glm', model: 'glm-4.7' });
    expect((view.getByTestId('model-picker') as HTMLInputElement).value).toBe('glm-4.7');
  });
});
