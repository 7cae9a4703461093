// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, ModelPriceView, UsageDayView } from '../../src-shared/api';
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
    installApi(fakeApi({ getUsage, getModelPrices: async () => [] }));
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

  it('sets a price for a model the list does not know, and asks for the sums again', async () => {
    const listed = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 };
    const sonnet: ModelPriceView = { brain: 'claude', model: 'claude-sonnet-4-6', listed, pricedAs: 'claude-sonnet-4-6', own: null };
    const mystery: ModelPriceView = { brain: 'kimi', model: 'mystery-1', listed: null, pricedAs: null, own: null };
    const own = { inputPerMillion: 1.5, outputPerMillion: 6, cacheReadPerMillion: 0.25, cacheWritePerMillion: null };
    const getUsage = vi.fn<Api['getUsage']>().mockResolvedValue([day({})]);
    const setModelPrice = vi.fn<Api['setModelPrice']>().mockResolvedValue([sonnet, { ...mystery, own }]);
    installApi(fakeApi({ getUsage, getModelPrices: async () => [sonnet, mystery], setModelPrice }));
    const view = render(<UsageSettings />);
    await settle();
    const cells = (model: string) => [...view.container.querySelectorAll(`[data-testid="price-row"][data-model="${model}"] td`)].map((cell) => cell.textContent);
    expect(cells('claude-sonnet-4-6')).toEqual(['$3', '$15', '$0.30', '$3.75', 'Edit']);
    expect(cells('mystery-1')).toEqual(['Not in the price list: its replies show no cost until you set one.', 'Set']);

    fireEvent.click(view.getByRole('button', { name: 'Set the price of mystery-1' }));
    fireEvent.change(view.getByTestId('price-input-input'), { target: { value: '$1.50' } });
    fireEvent.change(view.getByTestId('price-input-output'), { target: { value: 'six' } });
    fireEvent.click(view.getByTestId('save-price'));
    expect(view.getByTestId('price-error').textContent).toContain('The output price is from 0 to 10,000 dollars per million tokens.');
    fireEvent.change(view.getByTestId('price-input-output'), { target: { value: '6' } });
    fireEvent.change(view.getByTestId('price-input-cacheRead'), { target: { value: '0.25' } });
    fireEvent.click(view.getByTestId('save-price'));
    await settle();
    expect(setModelPrice).toHaveBeenCalledWith({ brain: 'kimi', model: 'mystery-1', price: own });
    expect(cells('mystery-1')).toEqual(['$1.50', '$6', '$0.25', '—', 'YoursEditReset']);
    expect(getUsage).toHaveBeenCalledTimes(2);

    fireEvent.click(view.getByRole('button', { name: 'Price mystery-1 by the list again' }));
    await settle();
    expect(setModelPrice).toHaveBeenLastCalledWith({ brain: 'kimi', model: 'mystery-1', price: null });
  });

  it('counts a period back from today, today included', () => {
    expect(firstDayOf('7', new Date('2026-12-07T10:00:00.000Z'))).toBe('2026-12-01');
    expect(firstDayOf('30', new Date('2026-12-07T10:00:00.000Z'))).toBe('2026-11-08');
    expect(firstDayOf('all', new Date('2026-12-07T10:00:00.000Z'))).toBeUndefined();
  });
});
