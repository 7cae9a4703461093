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
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'glm', model: null, reasoningLevel: null });
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    expect(input.placeholder).toBe('glm-5.1');
    fireEvent.change(input, { target: { value: ' glm-4.7 ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'glm', model: 'glm-4.7' });
    expect((view.getByTestId('model-picker') as HTMLInputElement).value).toBe('glm-4.7');
  });

  it('offers one button per brain in table order, the active one pressed, each titled with its shortcut', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    const buttons = view.getAllByRole('button').filter((button) => button.dataset.testid?.startsWith('brain-switch-'));
    expect(buttons.map((button) => [button.dataset.testid, button.textContent, button.title, button.getAttribute('aria-pressed')])).toEqual([
      ['brain-switch-claude', 'Claude', 'Claude (Ctrl+1)', 'false'],
      ['brain-switch-codex', 'Codex', 'Codex (Ctrl+2)', 'false'],
      ['brain-switch-kimi', 'Kimi', 'Kimi (Ctrl+3)', 'true'],
      ['brain-switch-grok', 'Grok', 'Grok (Ctrl+4)', 'false'],
      ['brain-switch-glm', 'GLM', 'GLM (Ctrl+5)', 'false'],
      ['brain-switch-gemini', 'Gemini', 'Gemini (Ctrl+6)', 'false'],
      ['brain-switch-ollama', 'Ollama', 'Ollama (Ctrl+7)', 'false'],
    ]);
    expect(view.getByRole('group', { name: /Brain for the next reply/ }).getAttribute('aria-label')).toContain('Ctrl+Shift+B');
  });

  it('switches brain in one click, and a click on the active brain changes nothing', async () => {
    const setConversationBrain = vi
      .fn<Api['setConversationBrain']>()
      .mockResolvedValue(conversationFixture({ brain: 'gemini', model: null }));
    installApi(fakeApi({ setConversationBrain }));
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.click(view.getByTestId('brain-switch-kimi'));
    await settle();
    expect(setConversationBrain).not.toHaveBeenCalled();
    fireEvent.click(view.getByTestId('brain-switch-gemini'));
    await settle();
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'gemini', model: null, reasoningLevel: null });
    expect(view.getByTestId('brain-switch-gemini').getAttribute('aria-pressed')).toBe('true');
    expect(view.getByTestId('brain-switch-kimi').getAttribute('aria-pressed')).toBe('false');
    expect((view.getByTestId('brain-picker') as HTMLSelectElement).value).toBe('gemini');
  });

  it('presses the default brain of a conversation without its own pick', () => {
    act(() => useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: null }) } }));
    const view = render(<ConversationHeader conversationId="c1" />);
    expect(view.getByTestId('brain-switch-claude').getAttribute('aria-pressed')).toBe('true');
  });

  it("offers only the model's reasoning levels, empty meaning the model's own default", async () => {
    const setConversationBrain = vi
      .fn<Api['setConversationBrain']>()
      .mockResolvedValueOnce(conversationFixture({ brain: 'kimi', reasoningLevel: 'high' }))
      .mockResolvedValueOnce(conversationFixture({ brain: 'kimi', reasoningLevel: null }));
    installApi(fakeApi({ setConversationBrain }));
    const view = render(<ConversationHeader conversationId="c1" />);
    const picker = view.getByTestId('reasoning-picker') as HTMLSelectElement;
    expect(picker.value).toBe('');
    // Kimi K2.6 thinks by default and has no dial between on and off.
    expect(Array.from(picker.options).map((option) => [option.value, option.textContent])).toEqual([
      ['', 'Default (high)'],
      ['off', 'Off'],
      ['high', 'High'],
    ]);
    expect(picker.closest('label')?.textContent).toContain('Reasoning');
    fireEvent.change(picker, { target: { value: 'high' } });
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'kimi', reasoningLevel: 'high' });
    expect((view.getByTestId('reasoning-picker') as HTMLSelectElement).value).toBe('high');
    fireEvent.change(view.getByTestId('reasoning-picker'), { target: { value: '' } });
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'kimi', reasoningLevel: null });
  });

  it("offers the levels of the conversation's own model, not its brain's default model", () => {
    act(() => useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'gemini', model: 'gemini-3-pro-preview', reasoningLevel: 'medium' }) } }));
    const view = render(<ConversationHeader conversationId="c1" />);
    const picker = view.getByTestId('reasoning-picker') as HTMLSelectElement;
    // Gemini 3 Pro has low and high only, and cannot stop thinking; a pick it lacks shows as its default.
    expect(Array.from(picker.options).map((option) => option.value)).toEqual(['', 'low', 'high']);
    expect(picker.value).toBe('');
  });

  it('opens the request view from its button', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.click(view.getByTestId('show-request'));
    expect(useAppStore.getState().requestPreviewOpen).toBe(true);
  });
});
