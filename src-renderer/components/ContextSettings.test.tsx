// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type ContextSettingsView, type SettingsView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { applySettings } from '../state/settings-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { contextSettingsFixture, fakeApi, modelWindowFixture } from '../state/test-fixtures';
import { ContextSettings } from './ContextSettings';

function settingsWith(context: Partial<ContextSettingsView> = {}): SettingsView {
  return { defaultBrain: 'kimi', theme: 'system', canStoreKeys: true, keyStorage: { place: 'the system keychain', answering: true, refusal: null, refusalDetail: null }, dataDir: '/data', brains: [], context: contextSettingsFixture(context) };
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

function linesOf(view: ReturnType<typeof render>, brain: string) {
  const row = view.getAllByTestId('context-lines').find((element) => element.dataset.brain === brain);
  if (row === undefined) throw new Error(`no lines for ${brain}`);
  return within(row);
}

function windowRow(view: ReturnType<typeof render>, model: string) {
  const row = view.getAllByTestId('model-window-row').find((element) => element.dataset.model === model);
  if (row === undefined) throw new Error(`no row for ${model}`);
  return within(row);
}

const guessed = modelWindowFixture({
  model: 'kimi-k9',
  source: 'family',
  reportedAt: null,
  note: "Anybrain does not know Kimi's model kimi-k9, so it uses the window of its family (kimi-k2…): 262,144 tokens.",
});
const overridden = modelWindowFixture({
  brain: 'glm',
  model: 'glm-5.1',
  contextWindow: 128_000,
  outputLimit: 128_000 - 1_000,
  source: 'override',
  reportedAt: null,
  override: { contextWindow: 128_000, outputLimit: null },
});

beforeEach(() => {
  resetAppStore();
  useAppStore.setState(applySettings(settingsWith({ modelWindows: [modelWindowFixture(), guessed, overridden] })));
});

afterEach(cleanup);

describe('ContextSettings', () => {
  it('picks the brain that writes summaries, empty meaning the brain the turn goes to', async () => {
    const setCompactionBrain = vi
      .fn<Api['setCompactionBrain']>()
      .mockResolvedValueOnce(settingsWith({ compactionBrain: 'gemini' }))
      .mockResolvedValueOnce(settingsWith({ compactionBrain: null }));
    installApi(fakeApi({ setCompactionBrain }));
    const view = render(<ContextSettings />);
    const select = view.getByTestId('compaction-brain-select') as HTMLSelectElement;
    expect(Array.from(select.options).map((option) => [option.value, option.textContent])).toEqual([
      ['', 'The brain the turn goes to'],
      ['claude', 'Claude'],
      ['codex', 'Codex'],
      ['kimi', 'Kimi'],
      ['grok', 'Grok'],
      ['glm', 'GLM'],
      ['gemini', 'Gemini'],
      ['ollama', 'Ollama'],
    ]);
    fireEvent.change(select, { target: { value: 'gemini' } });
    await settle();
    expect(setCompactionBrain).toHaveBeenLastCalledWith({ brain: 'gemini' });
    expect(select.value).toBe('gemini');
    fireEvent.change(select, { target: { value: '' } });
    await settle();
    expect(setCompactionBrain).toHaveBeenLastCalledWith({ brain: null });
    expect(select.value).toBe('');
  });

  it("saves a brain's lines, and refuses a warning line not below the emergency line without asking the Api", async () => {
    const lines = contextSettingsFixture().lines;
    const setContextLines = vi
      .fn<Api['setContextLines']>()
      .mockResolvedValue(settingsWith({ lines: { ...lines, kimi: { warningPercent: 40, emergencyPercent: 70 } } }));
    installApi(fakeApi({ setContextLines }));
    const view = render(<ContextSettings />);
    expect(view.getAllByTestId('context-lines').map((row) => row.dataset.brain)).toEqual([
      'claude', 'codex', 'kimi', 'grok', 'glm', 'gemini', 'ollama',
    ]);
    const kimi = linesOf(view, 'kimi');
    const save = kimi.getByTestId('save-context-lines') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(kimi.getByTestId('warning-percent'), { target: { value: '85' } });
    fireEvent.click(save);
    await settle();
    expect(kimi.getByTestId('context-lines-error').textContent).toBe('The warning line must be below the emergency line.');
    expect(setContextLines).not.toHaveBeenCalled();
    fireEvent.change(kimi.getByTestId('warning-percent'), { target: { value: '40' } });
    fireEvent.change(kimi.getByTestId('emergency-percent'), { target: { value: '70' } });
    fireEvent.click(kimi.getByTestId('save-context-lines'));
    await settle();
    expect(setContextLines).toHaveBeenCalledWith({ brain: 'kimi', warningPercent: 40, emergencyPercent: 70 });
    const saved = linesOf(view, 'kimi');
    expect(saved.queryByTestId('context-lines-error')).toBeNull();
    expect((saved.getByTestId('warning-percent') as HTMLInputElement).value).toBe('40');
    expect((saved.getByTestId('emergency-percent') as HTMLInputElement).value).toBe('70');
    expect(saved.getByRole('textbox', { name: 'Kimi warning line, percent' })).toBe(saved.getByTestId('warning-percent'));
    expect(saved.getByRole('textbox', { name: 'Kimi emergency line, percent' })).toBe(saved.getByTestId('emergency-percent'));
  });

  it("shows the Api's refusal of lines beside them", async () => {
    installApi(fakeApi({ setContextLines: () => Promise.reject(new ApiError('invalid-input', 'the warning line must be below the emergency line')) }));
    const view = render(<ContextSettings />);
    const glm = linesOf(view, 'glm');
    fireEvent.change(glm.getByTestId('emergency-percent'), { target: { value: '90' } });
    fireEvent.click(glm.getByTestId('save-context-lines'));
    await settle();
    expect(glm.getByRole('alert').textContent).toBe('the warning line must be below the emergency line');
  });

  it("lists each model's window, output limit and where it came from, in words", () => {
    const view = render(<ContextSettings />);
    const rows = view.getAllByTestId('model-window-row').map((row) =>
      Array.from(row.querySelectorAll('td, th')).slice(0, 4).map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['kimi-k2.6Kimi', '262,144', '32,768', 'from the catalogue'],
      ['kimi-k9Kimi', '262,144', '32,768', `a guess from the model's family: ${guessed.note}`],
      ['glm-5.1GLM', '128,000', '127,000', 'your setting'],
    ]);
    expect(windowRow(view, 'kimi-k9').getByTestId('model-window-source').title).toBe(guessed.note);
    expect(windowRow(view, 'kimi-k2.6').queryByTestId('reset-model-window')).toBeNull();
    expect(windowRow(view, 'glm-5.1').getByRole('button', { name: "Reset glm-5.1 to the table's window" })).toBeTruthy();
  });

  it('edits an override, checking the output limit against the window first', async () => {
    const setModelWindow = vi.fn<Api['setModelWindow']>().mockResolvedValue(
      settingsWith({ modelWindows: [modelWindowFixture({ contextWindow: 200_000, source: 'override', override: { contextWindow: 200_000, outputLimit: null } })] }),
    );
    installApi(fakeApi({ setModelWindow }));
    const view = render(<ContextSettings />);
    fireEvent.click(view.getByRole('button', { name: 'Edit the window of kimi-k2.6' }));
    const editing = windowRow(view, 'kimi-k2.6');
    const windowInput = editing.getByTestId('window-input') as HTMLInputElement;
    expect([windowInput.value, windowInput.placeholder]).toEqual(['', '262,144']);
    fireEvent.change(windowInput, { target: { value: '20,000' } });
    fireEvent.change(editing.getByTestId('output-input'), { target: { value: '32768' } });
    fireEvent.click(editing.getByTestId('save-model-window'));
    await settle();
    expect(view.getByTestId('model-window-error').textContent).toBe('The output limit must be smaller than the window.');
    expect(setModelWindow).not.toHaveBeenCalled();
    fireEvent.change(windowInput, { target: { value: '200,000' } });
    fireEvent.change(editing.getByTestId('output-input'), { target: { value: '' } });
    fireEvent.keyDown(windowInput, { key: 'Enter' });
    await settle();
    expect(setModelWindow).toHaveBeenCalledWith({ brain: 'kimi', model: 'kimi-k2.6', contextWindow: 200_000, outputLimit: null });
    const saved = windowRow(view, 'kimi-k2.6');
    expect(saved.getByTestId('model-window-size').textContent).toBe('200,000');
    expect(saved.getByTestId('model-window-source').textContent).toBe('your setting');
  });

  it('resets an override to the table', async () => {
    const setModelWindow = vi.fn<Api['setModelWindow']>().mockResolvedValue(settingsWith());
    installApi(fakeApi({ setModelWindow }));
    const view = render(<ContextSettings />);
    fireEvent.click(windowRow(view, 'glm-5.1').getByTestId('reset-model-window'));
    await settle();
    expect(setModelWindow).toHaveBeenCalledWith({ brain: 'glm', model: 'glm-5.1', contextWindow: null, outputLimit: null });
    expect(view.getAllByTestId('model-window-row').map((row) => row.dataset.model)).toEqual(['kimi-k2.6']);
  });

  it('adds an override for a model not listed, asking for a model id and a number first', async () => {
    const setModelWindow = vi.fn<Api['setModelWindow']>().mockResolvedValue(settingsWith());
    installApi(fakeApi({ setModelWindow }));
    const view = render(<ContextSettings />);
    const form = within(view.getByTestId('add-model-window'));
    fireEvent.click(form.getByTestId('add-window-save'));
    await settle();
    expect(form.getByTestId('add-window-error').textContent).toBe('Give the model id, as the brain names it.');
    fireEvent.change(form.getByTestId('add-window-model'), { target: { value: ' qwen3:32b ' } });
    fireEvent.click(form.getByTestId('add-window-save'));
    await settle();
    expect(form.getByTestId('add-window-error').textContent).toBe('Give a window, an output limit, or both.');
    fireEvent.change(form.getByTestId('add-window-brain'), { target: { value: 'ollama' } });
    fireEvent.change(form.getByTestId('add-window-size'), { target: { value: '40960' } });
    fireEvent.click(form.getByTestId('add-window-save'));
    await settle();
    expect(setModelWindow).toHaveBeenCalledWith({ brain: 'ollama', model: 'qwen3:32b', contextWindow: 40_960, outputLimit: null });
    expect(form.queryByTestId('add-window-error')).toBeNull();
    expect((form.getByTestId('add-window-model') as HTMLInputElement).value).toBe('');
  });
});
