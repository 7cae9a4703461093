// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvocationView } from '../../src-shared/api';
import { buildReceipt } from '../../src-shared/receipt';
import { mergeInvocations, openConversationState } from '../state/messages-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { invocationFixture, replyFixture } from '../state/test-fixtures';
import { TurnReceiptStrip } from './TurnReceipt';

function loadReply(...invocations: InvocationView[]): void {
  const reply = replyFixture();
  useAppStore.setState({
    ...openConversationState('c1'),
    pageStatus: 'ready',
    messagesById: { [reply.id]: reply },
    messageIds: [reply.id],
    ...mergeInvocations({ invocationsByMessage: {} }, invocations),
  });
}

const memory = invocationFixture({ id: 'mem', seq: 0, kind: 'memory', server: null, tool: 'recall', input: { query: 'trip' } });
const readFile = invocationFixture({
  id: 'read',
  seq: 1,
  server: 'files',
  tool: 'read_file',
  input: { path: 'notes/<b>plan</b>.md' },
  output: '<img src=x onerror="window.__pwned = 1">Day one',
  startedAt: '2026-01-01T10:00:00.000Z',
  endedAt: '2026-01-01T10:00:01.500Z',
});
const denied = invocationFixture({ id: 'deny', seq: 2, server: 'shell', tool: 'run', status: 'denied', output: null });

beforeEach(resetAppStore);
afterEach(cleanup);

describe('TurnReceiptStrip', () => {
  it('shows nothing at all for a reply that used nothing', () => {
    loadReply();
    const view = render(<TurnReceiptStrip messageId="m2" />);
    expect(view.container.innerHTML).toBe('');
  });

  it("ends the strip with what the reply cost, and shows the cost alone under a reply that used nothing", () => {
    const spend = { requests: 2, inputTokens: 50_200, cacheReadTokens: 45_066, cacheWriteTokens: 0, outputTokens: 46, costUsd: 0.0123 };
    loadReply(readFile);
    const withCalls = render(<TurnReceiptStrip messageId="m2" spend={spend} />);
    expect(withCalls.getByTestId('reply-spend').textContent).toBe('$0.012 · 89 % cached');
    expect(withCalls.getByTestId('reply-spend').title).toBe(
      "$0.012, an estimate from the prices in Settings → Usage: 2 requests, 50,200 input tokens (45,066 read from the provider's cache), 46 output tokens.",
    );
    cleanup();
    loadReply();
    const alone = render(<TurnReceiptStrip messageId="m2" spend={spend} />);
    expect(alone.container.textContent).toBe('$0.012 · 89 % cached');
    cleanup();
    // A model on this machine, which read nothing from a cache: nothing to say.
    const free = render(<TurnReceiptStrip messageId="m2" spend={{ ...spend, cacheReadTokens: 0, costUsd: 0 }} />);
    expect(free.container.innerHTML).toBe('');
  });

  it('summarises the invocations and shows a chip per call, server first', () => {
    loadReply(memory, readFile, denied);
    const view = render(<TurnReceiptStrip messageId="m2" />);
    expect(view.getByTestId('receipt-summary').textContent).toBe('1 memory · 2 tools');
    const chips = view.getAllByTestId('receipt-chip');
    expect(chips.map((chip) => [chip.textContent, chip.dataset.kind, chip.dataset.status])).toEqual([
      ['recall', 'memory', 'ok'],
      ['files · read_file', 'tool', 'ok'],
      ['shell · run', 'tool', 'denied'],
    ]);
    expect(chips[2]?.className).toContain('status-denied');
    expect(chips[2]?.getAttribute('aria-label')).toBe('shell · run, denied');
    expect(chips[2]?.querySelector('svg')).not.toBeNull();
    expect(chips[1]?.getAttribute('aria-label')).toBeNull();
  });

  it('names each recalled memory by its first words, keeping the count in the summary', () => {
    loadReply(
      invocationFixture({ id: 'm-a', seq: 0, kind: 'memory', server: null, tool: 'memory', input: { memoryId: 'a' }, output: 'The user lives in Seoul and works night shifts at a hospital.' }),
      invocationFixture({ id: 'm-b', seq: 1, kind: 'memory', server: null, tool: 'memory', input: { memoryId: 'b' }, output: 'Prefers metric units.' }),
      readFile,
    );
    const view = render(<TurnReceiptStrip messageId="m2" />);
    expect(view.getByTestId('receipt-summary').textContent).toBe('2 memories · 1 tool');
    expect(view.getAllByTestId('receipt-chip').map((chip) => chip.textContent)).toEqual([
      'The user lives in Seoul and works night…',
      'Prefers metric units.',
      'files · read_file',
    ]);
    fireEvent.click(view.getAllByTestId('receipt-chip')[0] as HTMLElement);
    expect(view.getByTestId('invocation-output').textContent).toBe('The user lives in Seoul and works night shifts at a hospital.');
  });

  it('opens one call at a time: tool, server, status, duration, input and output as plain text', () => {
    loadReply(memory, readFile, denied);
    const view = render(<TurnReceiptStrip messageId="m2" />);
    const chips = view.getAllByTestId('receipt-chip');
    expect(view.queryByTestId('invocation-detail')).toBeNull();

    fireEvent.click(chips[1] as HTMLElement);
    const detail = within(view.getByTestId('invocation-detail'));
    expect(chips[1]?.getAttribute('aria-expanded')).toBe('true');
    expect(chips[1]?.getAttribute('aria-controls')).toBe(view.getByTestId('invocation-detail').id);
    expect(detail.getByTestId('invocation-tool').textContent).toBe('read_file');
    expect(detail.getByText('files')).toBeTruthy();
    expect(detail.getByTestId('invocation-status').textContent).toBe('ok');
    expect(detail.getByTestId('invocation-duration').textContent).toBe('1.5 s');
    expect(detail.getByTestId('invocation-input').textContent).toBe('{\n  "path": "notes/<b>plan</b>.md"\n}');
    expect(detail.getByTestId('invocation-output').textContent).toBe('<img src=x onerror="window.__pwned = 1">Day one');
    expect(view.container.querySelector('img, b')).toBeNull();

    fireEvent.click(chips[2] as HTMLElement);
    expect(view.getAllByTestId('invocation-detail')).toHaveLength(1);
    expect(view.getByTestId('invocation-status').textContent).toBe('denied');
    expect(view.getByTestId('invocation-output').textContent).toBe('No output.');
    expect(chips[1]?.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(chips[2] as HTMLElement);
    expect(view.queryByTestId('invocation-detail')).toBeNull();
  });

  it('names the images a result held, and draws none of them', () => {
    const snapshot = invocationFixture({
      id: 'snap', server: 'everything', tool: 'get-tiny-image', output: '',
      images: [{ mimeType: 'image/png', byteLength: 12345 }, { mimeType: 'image/svg+xml', byteLength: 1 }],
    });
    loadReply(snapshot);
    const view = render(<TurnReceiptStrip messageId="m2" />);
    fireEvent.click(view.getByTestId('receipt-chip'));
    expect(view.getAllByTestId('invocation-image').map((item) => item.textContent)).toEqual([
      'Image: image/png, 12,345 bytes',
      'Image: image/svg+xml, 1 byte',
    ]);
    expect(view.queryByTestId('invocation-output')).toBeNull();
    expect(view.container.querySelector('img, svg image, object, embed')).toBeNull();
  });

  it('follows calls as they finish while the reply streams', () => {
    loadReply();
    const view = render(<TurnReceiptStrip messageId="m2" />);
    act(() => useAppStore.setState((state) => mergeInvocations(state, [invocationFixture({ status: 'error' })])));
    expect(view.getByTestId('receipt-summary').textContent).toBe('1 tool');
    expect(view.getByTestId('receipt-chip').dataset.status).toBe('error');
    act(() => useAppStore.setState((state) => mergeInvocations(state, [invocationFixture({ id: 'i2', seq: 1, tool: 'search' })])));
    expect(view.getAllByTestId('receipt-chip').map((chip) => chip.textContent)).toEqual(['current_time', 'search']);
  });

  it('takes the receipt the host sent as authoritative, with details from the rows it knows', () => {
    loadReply(readFile);
    const sent = buildReceipt([
      { id: 'read', kind: 'tool', server: 'files', tool: 'read_file', status: 'cancelled' },
      { id: 'later', kind: 'skill', server: null, tool: 'summarise', status: 'ok' },
    ]);
    useAppStore.setState({ receiptsByMessage: { m2: sent } });
    const view = render(<TurnReceiptStrip messageId="m2" />);
    expect(view.getByTestId('receipt-summary').textContent).toBe('1 tool · 1 skill');
    expect(view.getAllByTestId('receipt-chip').map((chip) => chip.dataset.status)).toEqual(['cancelled', 'ok']);
    fireEvent.click(view.getAllByTestId('receipt-chip')[1] as HTMLElement);
    expect(view.getByTestId('invocation-tool').textContent).toBe('summarise');
    expect(view.queryByTestId('invocation-input')).toBeNull();
  });
});

describe('TurnReceiptStrip roles', () => {
  it('is a group named by its summary holding a named list of chips', () => {
    loadReply(memory, readFile, denied);
    const view = render(<TurnReceiptStrip messageId="m2" />);
    const group = view.getByRole('group');
    expect(group.getAttribute('aria-label')).toBe('Receipt: 1 memory · 2 tools');
    const list = within(group).getByRole('list', { name: 'What this reply used' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });

  it('heads the open details one level under the conversation title (axe heading-order)', () => {
    loadReply(memory, readFile, denied);
    const view = render(<TurnReceiptStrip messageId="m2" />);
    fireEvent.click(view.getAllByTestId('receipt-chip')[1]!);
    expect(view.getAllByRole('heading').map((heading) => [heading.tagName, heading.textContent])).toEqual([
      ['H2', 'Input'],
      ['H2', 'Output'],
    ]);
  });
});
