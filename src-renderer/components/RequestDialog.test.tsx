// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, RequestPreview } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { upsertConversation } from '../state/conversations-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { contextStatusFixture, conversationFixture, fakeApi } from '../state/test-fixtures';
import { RequestDialog } from './RequestDialog';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

const kimiBody = '{"model":"kimi-k2.6","messages":[{"role":"user","content":"<b>Hi</b>"}],"stream":true}';

function previewFixture(overrides: Partial<RequestPreview> = {}): RequestPreview {
  return {
    brain: 'kimi',
    model: 'kimi-k2.6',
    reasoningLevel: 'off',
    wire: 'chat-completions',
    body: kimiBody,
    warnings: [],
    context: contextStatusFixture(),
    ...overrides,
  };
}

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({
    conversationsById: { c1: conversationFixture({ brain: 'kimi' }) },
    requestPreviewOpen: true,
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RequestDialog', () => {
  it('asks for the next request with the draft and shows brain, model, wire and the body laid out for reading', async () => {
    const previewRequest = vi.fn<Api['previewRequest']>().mockResolvedValue(previewFixture());
    installApi(fakeApi({ previewRequest }));
    useAppStore.setState({ drafts: { c1: 'Hi' } });
    const view = render(<RequestDialog conversationId="c1" />);
    await settle();
    expect(previewRequest).toHaveBeenCalledWith({ conversationId: 'c1', message: 'Hi' });
    const dialog = view.getByTestId('request-dialog');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(dialog);
    expect(view.getByTestId('request-brain').textContent).toBe('Kimi');
    expect(view.getByTestId('request-model').textContent).toBe('kimi-k2.6');
    expect(view.getByTestId('request-wire').textContent).toBe('chat-completions');
    expect(view.getByTestId('request-window').textContent).toBe("61 % of Kimi's window");
    expect(view.getByTestId('request-window').title).toBe("160,000 of 262,144 tokens (estimated); window: from the catalogue; Kimi's request holds every message");
    expect(view.getByTestId('request-history').textContent).toBe("Kimi's request holds every message");
    expect(view.getByTestId('request-body').textContent).toBe(JSON.stringify(JSON.parse(kimiBody), null, 2));
    expect(view.getByTestId('request-body').querySelector('b')).toBeNull();
    expect(view.queryByTestId('request-warnings')).toBeNull();
    expect(dialog.textContent).toContain('anybrain request --conversation c1 --brain kimi --model kimi-k2.6');
    expect(dialog.textContent).toContain('with your draft as the new message');
  });

  it('lists the warnings of a lossy replay', async () => {
    installApi(fakeApi({ previewRequest: async () => previewFixture({ warnings: ['2 calls left out', 'search is no longer offered'] }) }));
    const view = render(<RequestDialog conversationId="c1" />);
    await settle();
    expect(Array.from(view.getByTestId('request-warnings').querySelectorAll('li')).map((item) => item.textContent)).toEqual([
      '2 calls left out',
      'search is no longer offered',
    ]);
  });

  it('copies the exact bytes, not the indented text', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    installApi(fakeApi({ previewRequest: async () => previewFixture() }));
    const view = render(<RequestDialog conversationId="c1" />);
    await settle();
    fireEvent.click(view.getByTestId('copy-request'));
    await settle();
    expect(writeText).toHaveBeenCalledWith(kimiBody);
    expect(view.getByTestId('copy-request').textContent).toBe('Copied');
  });

  it('asks again when the brain changes while it is open', async () => {
    const previewRequest = vi
      .fn<Api['previewRequest']>()
      .mockResolvedValueOnce(previewFixture())
      .mockResolvedValueOnce(previewFixture({ brain: 'glm', model: 'glm-5.1', wire: 'anthropic-messages', body: '{"model":"glm-5.1"}' }));
    installApi(fakeApi({ previewRequest }));
    const view = render(<RequestDialog conversationId="c1" />);
    await settle();
    act(() => useAppStore.setState((state) => upsertConversation(state, conversationFixture({ brain: 'glm' }))));
    await settle();
    expect(previewRequest).toHaveBeenCalledTimes(2);
    expect(previewRequest).toHaveBeenLastCalledWith({ conversationId: 'c1' });
    expect(view.getByTestId('request-model').textContent).toBe('glm-5.1');
    expect(view.getByTestId('request-body').textContent).toBe('{\n  "model": "glm-5.1"\n}');
  });

  it('shows a refusal with a way to try again', async () => {
    const previewRequest = vi
      .fn<Api['previewRequest']>()
      .mockRejectedValueOnce(new Error('No such conversation.'))
      .mockResolvedValueOnce(previewFixture());
    installApi(fakeApi({ previewRequest }));
    const view = render(<RequestDialog conversationId="c1" />);
    await settle();
    expect(view.getByTestId('request-error').textContent).toContain('No such conversation.');
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(view.queryByTestId('request-error')).toBeNull();
    expect(view.getByTestId('request-model').textContent).toBe('kimi-k2.6');
  });

  it('closes on Escape and on its close button', async () => {
    installApi(fakeApi({ previewRequest: async () => previewFixture() }));
    const view = render(<RequestDialog conversationId="c1" />);
    await settle();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(useAppStore.getState().requestPreviewOpen).toBe(false);
    act(() => useAppStore.setState({ requestPreviewOpen: true }));
    fireEvent.click(view.getByTestId('close-request'));
    expect(useAppStore.getState().requestPreviewOpen).toBe(false);
  });
});
