// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, ContextStatusView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { setConversationBrain } from '../state/brain-actions';
import { beginCompaction } from '../state/context-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { contextStatusFixture, conversationFixture, fakeApi } from '../state/test-fixtures';
import { ContextMeter } from './ContextMeter';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

function renderWith(status: ContextStatusView, commands: Partial<Api> = {}) {
  const getContextStatus = vi.fn<Api['getContextStatus']>().mockResolvedValue(status);
  installApi(fakeApi({ getContextStatus, ...commands }));
  const view = render(<ContextMeter conversationId="c1" />);
  return { view, getContextStatus };
}

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'kimi', model: null }) }, conversationOrder: ['c1'] });
});

afterEach(cleanup);

describe('ContextMeter', () => {
  it('shows nothing until the status arrives, then the share in words with the token figures', async () => {
    const { view, getContextStatus } = renderWith(contextStatusFixture());
    expect(view.queryByTestId('context-meter')).toBeNull();
    await settle();
    expect(getContextStatus).toHaveBeenCalledWith({ conversationId: 'c1' });
    expect(view.getByTestId('context-meter-text').textContent).toBe("61 % of Kimi's window");
    const meter = view.getByRole('meter');
    expect(meter.getAttribute('aria-valuenow')).toBe('61');
    expect(meter.getAttribute('aria-valuetext')).toBe("61 % of Kimi's window: 160,000 of 262,144 tokens (estimated); window: from the catalogue; Kimi's request holds every message");
    expect(view.getByTestId('context-meter-text').parentElement?.title).toBe(
      "160,000 of 262,144 tokens (estimated); window: from the catalogue; Kimi's request holds every message",
    );
  });

  it('is neutral below the warning line, amber at it, red at the emergency line or once the brain refused', async () => {
    const cases: Array<[Partial<ContextStatusView>, string]> = [
      [{ level: 'ok', percent: 20 }, 'context-meter tone-ok'],
      [{ level: 'warning', percent: 61 }, 'context-meter tone-warning'],
      [{ level: 'emergency', percent: 85 }, 'context-meter tone-full'],
      [{ level: 'ok', percent: 30, full: true }, 'context-meter tone-full'],
    ];
    for (const [overrides, className] of cases) {
      const { view } = renderWith(contextStatusFixture(overrides));
      await settle();
      expect(view.getByTestId('context-meter').className).toBe(className);
      cleanup();
      act(() => useAppStore.setState({ contextStatus: {} }));
    }
  });

  it('fills the bar to the share, never past its end, and names a count the provider measured', async () => {
    const { view } = renderWith(contextStatusFixture({ percent: 140, measuredBy: 'usage', tokens: 367_000, level: 'emergency', description: "140 % of Kimi's window" }));
    await settle();
    const fill = view.getByRole('meter').firstElementChild as HTMLElement;
    expect(fill.style.width).toBe('100%');
    expect(view.getByRole('meter').getAttribute('aria-valuetext')).toBe(
      "140 % of Kimi's window: 367,000 of 262,144 tokens (from the provider's count); window: from the catalogue; Kimi's request holds every message",
    );
  });

  it('says which summary, if any, stands for the older messages in this brain\'s request', async () => {
    const { view } = renderWith(contextStatusFixture({ summary: { messageId: 's1', madeFor: 'ollama' } }));
    await settle();
    expect(view.getByTestId('context-meter-text').parentElement?.title).toBe(
      "160,000 of 262,144 tokens (estimated); window: from the catalogue; Kimi's request holds a summary written for Ollama's window in place of the older messages",
    );
    cleanup();
    act(() => useAppStore.setState({ contextStatus: {} }));
    const left = renderWith(contextStatusFixture({ outsideWindow: 52 }));
    await settle();
    expect(left.view.getByTestId('context-meter-text').parentElement?.title).toMatch(/; Kimi's request leaves out 52 older messages$/);
  });

  it('marks a guessed window with its note as accessible text, shown on a click', async () => {
    const note = "Anybrain does not know Kimi's model kimi-k9, so it uses the window of its family (kimi-k2…): 262,144 tokens.";
    const { view } = renderWith(contextStatusFixture({ windowNote: note, windowSource: 'family' }));
    await settle();
    const marker = view.getByTestId('context-window-note');
    expect(marker.getAttribute('aria-label')).toBe('The window size is a guess');
    const described = document.getElementById(marker.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(note);
    expect(described?.className).toBe('visually-hidden');
    fireEvent.click(marker);
    expect(marker.getAttribute('aria-expanded')).toBe('true');
    expect(view.getByTestId('context-window-note-text').className).toBe('context-note-text');
    fireEvent.keyDown(marker, { key: 'Escape' });
    expect(marker.getAttribute('aria-expanded')).toBe('false');
    expect(view.getByTestId('context-window-note-text').className).toBe('visually-hidden');
  });

  it('has no note marker for a window the table knows', async () => {
    const { view } = renderWith(contextStatusFixture());
    await settle();
    expect(view.queryByTestId('context-window-note')).toBeNull();
  });

  it('reads the window again when the brain in the header changes', async () => {
    const setConversationBrainCommand = vi
      .fn<Api['setConversationBrain']>()
      .mockResolvedValue(conversationFixture({ brain: 'glm', model: null }));
    const { view, getContextStatus } = renderWith(contextStatusFixture(), { setConversationBrain: setConversationBrainCommand });
    await settle();
    getContextStatus.mockResolvedValue(contextStatusFixture({ brain: 'glm', percent: 80, level: 'emergency', description: "80 % of GLM's window" }));
    await act(async () => {
      await setConversationBrain('c1', 'glm', { model: null });
    });
    await settle();
    expect(getContextStatus).toHaveBeenCalledTimes(2);
    expect(view.getByTestId('context-meter-text').textContent).toBe("80 % of GLM's window");
    expect(view.getByTestId('context-meter').className).toBe('context-meter tone-full');
  });

  it('follows a context-pressure status put in the store', async () => {
    const { view } = renderWith(contextStatusFixture({ level: 'ok', percent: 40, description: "40 % of Kimi's window" }));
    await settle();
    act(() => useAppStore.setState({ contextStatus: { c1: contextStatusFixture() } }));
    expect(view.getByTestId('context-meter-text').textContent).toBe("61 % of Kimi's window");
  });

  it('asks before compacting: Compact now opens the dialog that says what would be folded, and runs nothing itself', async () => {
    const compactConversation = vi.fn<Api['compactConversation']>().mockReturnValue(new Promise(() => undefined));
    const { view } = renderWith(contextStatusFixture(), { compactConversation });
    await settle();
    const button = view.getByTestId('compact-now') as HTMLButtonElement;
    expect(button.textContent).toBe('Compact now');
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    fireEvent.click(button);
    await settle();
    expect(useAppStore.getState().compactDialogOpen).toBe(true);
    expect(compactConversation).not.toHaveBeenCalled();
  });

  it('offers no second compaction while one runs', async () => {
    const { view } = renderWith(contextStatusFixture());
    await settle();
    act(() => useAppStore.setState((state) => beginCompaction(state, 'c1', null)));
    expect((view.getByTestId('compact-now') as HTMLButtonElement).disabled).toBe(true);
  });
});
