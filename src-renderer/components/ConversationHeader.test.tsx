// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { testBrain } from '../state/settings-actions';
import { resetAppStore, useAppStore } from '../state/store';
import { brainSettingsFixture, conversationFixture, fakeApi, settingsViewFixture } from '../state/test-fixtures';
import { applySettings } from '../state/settings-slice';
import { reportedModel } from '../../src-shared/models/reported';
import { ConversationHeader, NARROW_HEADER_QUERY } from './ConversationHeader';

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
  it('shows one compact picker naming the brain and its default model, its panel closed', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    const picker = view.getByTestId('brain-picker');
    expect(picker.dataset.brain).toBe('kimi');
    expect(picker.textContent).toBe('Kimikimi-k2.6');
    expect(picker.getAttribute('aria-expanded')).toBe('false');
    expect(picker.getAttribute('aria-haspopup')).toBe('dialog');
    expect(picker.title).toBe('Brain, model and reasoning for the next reply (Ctrl+Shift+B for the next brain)');
    expect(view.getByTestId('brain-picker-panel').hidden).toBe(true);
    // No second brain control: the segmented buttons live only inside the picker's panel.
    expect(view.container.querySelectorAll('select.brain-picker')).toHaveLength(0);
    expect(view.getByTestId('brain-picker-panel').contains(view.getByTestId('brain-switch-kimi'))).toBe(true);
  });

  it('opens on a click with the active brain focused; arrows, Home and End move; Esc closes back to the button', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    const picker = view.getByTestId('brain-picker');
    fireEvent.click(picker);
    const panel = view.getByRole('dialog', { name: 'Brain for the next reply' });
    expect(panel.hidden).toBe(false);
    expect(picker.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(view.getByTestId('brain-switch-kimi'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(view.getByTestId('brain-switch-grok'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(view.getByTestId('brain-switch-codex'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement).toBe(view.getByTestId('brain-switch-ollama'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(view.getByTestId('brain-switch-claude'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(picker);
  });

  it('closes on a click outside it', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.click(view.getByTestId('brain-picker'));
    fireEvent.pointerDown(view.getByTestId('brain-switch-glm'));
    expect(view.getByTestId('brain-picker-panel').hidden).toBe(false);
    fireEvent.pointerDown(document.body);
    expect(view.getByTestId('brain-picker-panel').hidden).toBe(true);
  });

  it('lets Esc in the model field put the typed text back first, and close the panel on a second Esc', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.click(view.getByTestId('brain-picker'));
    const input = view.getByRole('combobox', { name: 'Model' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'kimi-k2.5' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.value).toBe('');
    expect(view.getByTestId('brain-picker-panel').hidden).toBe(false);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(view.getByTestId('brain-picker-panel').hidden).toBe(true);
  });

  it('offers the brain models in the model picker, empty meaning the default', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    expect(input.value).toBe('');
    expect(input.placeholder).toBe('kimi-k2.6');
    expect(input.title).toBe("Any model id; empty uses Kimi's default, kimi-k2.6");
    const list = document.getElementById(input.getAttribute('list') ?? '');
    expect(Array.from(list?.querySelectorAll('option') ?? []).map((option) => option.value)).toEqual(['kimi-k3', 'kimi-k2.6', 'kimi-k2.5']);
  });

  it('also offers the models the provider listed when the brain was tested, each once', async () => {
    installApi(fakeApi({ testBrain: async () => ({ ok: true, message: 'Kimi answered: 3 models available.', models: ['kimi-k2.6', 'kimi-k2-turbo', 'moonshot-v1-8k'] }) }));
    const view = render(<ConversationHeader conversationId="c1" />);
    await act(async () => {
      await testBrain('kimi');
    });
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    const list = document.getElementById(input.getAttribute('list') ?? '');
    expect(Array.from(list?.querySelectorAll('option') ?? []).map((option) => option.value)).toEqual([
      'kimi-k3',
      'kimi-k2.6',
      'kimi-k2.5',
      'kimi-k2-turbo',
      'moonshot-v1-8k',
    ]);
  });

  it("marks a model its provider deprecates, in the list and under the field, though the catalogue does not know it", () => {
    const deprecated = reportedModel('kimi-old', { lifecycle: 'deprecated', retiresAt: '2027-03-01' });
    useAppStore.setState({
      ...applySettings(settingsViewFixture({ brains: [brainSettingsFixture({ models: ['kimi-k3', 'kimi-old'], modelsListedAt: '2026-12-07T09:00:00.000Z', reportedModels: [deprecated] })] })),
      conversationsById: { c1: conversationFixture({ brain: 'kimi', model: 'kimi-old' }) },
    });
    const view = render(<ConversationHeader conversationId="c1" />);
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    const options = Array.from(document.getElementById(input.getAttribute('list') ?? '')?.querySelectorAll('option') ?? []);
    expect(options.map((option) => [option.value, option.getAttribute('label')])).toEqual([
      ['kimi-k3', null],
      ['kimi-old', 'deprecated · retires 1 March 2027'],
    ]);
    expect(view.getByTestId('model-lifecycle').textContent).toMatch(/^Kimi's model kimi-old is deprecated and retires on 1 March 2027\. Pick another model in the model picker\.$/);
  });

  it('keeps to the known models when a test fails', async () => {
    installApi(fakeApi({ testBrain: async () => ({ ok: false, message: 'Kimi answered HTTP 401: Invalid Authentication' }) }));
    const view = render(<ConversationHeader conversationId="c1" />);
    await act(async () => {
      await testBrain('kimi');
    });
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    const list = document.getElementById(input.getAttribute('list') ?? '');
    expect(Array.from(list?.querySelectorAll('option') ?? []).map((option) => option.value)).toEqual(['kimi-k3', 'kimi-k2.6', 'kimi-k2.5']);
  });

  it('switches brain with the default model, and sets a typed model on Enter', async () => {
    const setConversationBrain = vi
      .fn<Api['setConversationBrain']>()
      .mockResolvedValueOnce(conversationFixture({ brain: 'glm', model: null }))
      .mockResolvedValueOnce(conversationFixture({ brain: 'glm', model: 'glm-4.7' }));
    installApi(fakeApi({ setConversationBrain }));
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.click(view.getByTestId('brain-switch-glm'));
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'glm', model: null, reasoningLevel: null });
    expect(view.getByTestId('brain-picker').textContent).toBe('GLMglm-5.1');
    const input = view.getByTestId('model-picker') as HTMLInputElement;
    expect(input.placeholder).toBe('glm-5.1');
    fireEvent.change(input, { target: { value: ' glm-4.7 ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'glm', model: 'glm-4.7' });
    expect((view.getByTestId('model-picker') as HTMLInputElement).value).toBe('glm-4.7');
    expect(view.getByTestId('brain-picker').textContent).toBe('GLMglm-4.7');
    // The field stays mounted once its model is set, so the focus stays in it.
    expect(view.getByTestId('model-picker')).toBe(input);
  });

  it('offers one button per brain in table order, the active one pressed, each titled with its shortcut', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    fireEvent.click(view.getByTestId('brain-picker'));
    const buttons = view.getAllByRole('button').filter((button) => button.dataset.testid?.startsWith('brain-switch-'));
    expect(buttons.map((button) => [button.dataset.testid, button.querySelector('.brain-switch-name')?.textContent, button.title, button.getAttribute('aria-pressed')])).toEqual([
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
    expect(view.getByTestId('brain-picker').dataset.brain).toBe('gemini');
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

  it('opens the request view from its button, shown in the header in a wide window', () => {
    const view = render(<ConversationHeader conversationId="c1" />);
    expect(view.queryByTestId('more-actions')).toBeNull();
    fireEvent.click(view.getByTestId('show-request'));
    expect(useAppStore.getState().requestPreviewOpen).toBe(true);
  });

  describe('in a narrow window', () => {
    beforeEach(() => {
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: query === NARROW_HEADER_QUERY,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }));
    });

    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('puts Compact now, Show request and Export… in the More actions menu', () => {
      const view = render(<ConversationHeader conversationId="c1" />);
      const more = view.getByRole('button', { name: 'More actions' });
      const menu = view.getByRole('menu', { hidden: true });
      expect(menu.hidden).toBe(true);
      expect(Array.from(menu.querySelectorAll('[role="menuitem"]')).map((item) => item.textContent)).toEqual([
        'Compact now',
        'Show request',
        'Export…',
      ]);
      fireEvent.click(more);
      expect(menu.hidden).toBe(false);
      fireEvent.click(view.getByRole('menuitem', { name: 'Show request' }));
      expect(useAppStore.getState().requestPreviewOpen).toBe(true);
      expect(menu.hidden).toBe(true);
    });
  });
});
