// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, UsageDayView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore } from '../state/store';
import { fakeApi } from '../state/test-fixtures';
import { firstDayOf, UsageSettings } from './UsageSettings';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

const day = (overrides: Partial<UsageDayView>): UsageDayView => ({
  day: '2026-12-07', brain: 'claude', model: 'claude-sonnet-5-5', requests: 3, inputTokens: 30_000, cacheReadTokens: 27_300, cacheWriteTokens: 0,
  outputTokens: 900, reasoningTokens: 0, costUsd: 0.0234, ...overrides,
});

beforeEach(() => resetAppStore());
afterEach(cleanup);

describe('UsageSettings', () => {
  it('lists each day, brain and model with its cached share and cost, and a total that stays unknown when one price is', async () => {
    const getUsage = vi.fn<Api['getUsage']>().mockResolvedValue([day({}), day({ brain: 'kimi', model: 'mystery-1', requests: 1, inputTokens: 1_000, cacheReadTokens: 0, outputTokens: 10, costUsd: null })]);
    installApi(fakeApi({ getUsage }));
    const view = render(<UsageSettings />);
    await settle();
    expect(getUsage).toHaveBeenCalledWith({ since: firstDayOf('30', new Date()) });
    const rows = view.getAllByTestId('usage-row').map((row) => [...row.querySelectorAll('td, th')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['2026-12-07', 'Claude claude-sonnet-5-5', '3', '30,000', '91 %', '900', '$0.023'],
      ['2026-12-07', 'Kimi mystery-1', '1', '1,000', '0 %', '10', 'price unknown'],
    ]);
    expect([...view.getByTestId('usage-total').querySelectorAll('td, th')].map((cell) => cell.textContent)).toEqual(['Total', '4', '31,000', '88 %', '910', 'price unknown']);

    getUsage.mockResolvedValue([]);
    fireEvent.change(view.getByTestId('usage-period'), { target: { value: 'all' } });
    await settle();
    expect(getUsage).toHaveBeenLastCalledWith({});
    expect(view.getByTestId('usage-empty').textContent).toBe('No provider request was counted in this period.');
  });

  it('counts a period back from today, today included', () => {
    expect(firstDayOf('7', new Date('2026-12-07T10:00:00.000Z'))).toBe('2026-12-01');
    expect(firstDayOf('30', new Date('2026-12-07T10:00:00.000Z'))).toBe('2026-11-08');
    expect(firstDayOf('all', new Date('2026-12-07T10:00:00.000Z'))).toBeUndefined();
  });
});
