import { useState } from 'react';
import type { UsageDayView } from '../../src-shared/api';
import { BRAINS } from '../../src-shared/brains';
import { formatCount } from '../../src-shared/format-count';
import { cachedPercent, dollarsText } from '../../src-shared/usage';
import { api } from '../state/api-client';
import { ModelPriceSettings } from './ModelPriceSettings';
import { useAnswerFor } from './use-answer';

const PERIODS = { '7': 'Last 7 days', '30': 'Last 30 days', all: 'Every day' } as const;
type Period = keyof typeof PERIODS;

function isPeriod(value: string): value is Period {
  return value in PERIODS;
}

/** The first day (UTC, YYYY-MM-DD) a period counts, or undefined for every day. */
export function firstDayOf(period: Period, now: Date): string | undefined {
  if (period === 'all') return undefined;
  const first = new Date(now.getTime() - (Number(period) - 1) * 86_400_000);
  return first.toISOString().slice(0, 10);
}

/** The rows summed; the dollars stay unknown when any row's are. */
export function usageTotal(days: readonly UsageDayView[]): { requests: number; inputTokens: number; cacheReadTokens: number; outputTokens: number; costUsd: number | null } {
  let costUsd: number | null = 0;
  const total = { requests: 0, inputTokens: 0, cacheReadTokens: 0, outputTokens: 0 };
  for (const day of days) {
    total.requests += day.requests;
    total.inputTokens += day.inputTokens;
    total.cacheReadTokens += day.cacheReadTokens;
    total.outputTokens += day.outputTokens;
    costUsd = costUsd === null || day.costUsd === null ? null : costUsd + day.costUsd;
  }
  return { ...total, costUsd: costUsd === null ? null : Math.round(costUsd * 1e8) / 1e8 };
}

function cachedText(usage: { readonly inputTokens: number; readonly cacheReadTokens: number }): string {
  const share = cachedPercent(usage);
  return share === null ? '—' : `${share} %`;
}

type Figures = ReturnType<typeof usageTotal>;

/** A row's figures: requests, input, cached share, output, dollars. */
function FigureCells({ figures, costTestId }: { readonly figures: Figures; readonly costTestId: string }) {
  return (
    <>
      <td className="usage-number">{formatCount(figures.requests)}</td>
      <td className="usage-number">{formatCount(figures.inputTokens)}</td>
      <td className="usage-number">{cachedText(figures)}</td>
      <td className="usage-number">{formatCount(figures.outputTokens)}</td>
      <td className="usage-number" data-testid={costTestId}>
        {dollarsText(figures.costUsd)}
      </td>
    </>
  );
}

function UsageTable({ days }: { readonly days: readonly UsageDayView[] }) {
  if (days.length === 0) return <p className="field-hint" data-testid="usage-empty">No provider request was counted in this period.</p>;
  const total = usageTotal(days);
  return (
    <div className="tool-table-frame">
      <table className="tool-table usage-table" data-testid="usage-table">
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Brain</th>
            <th scope="col" className="usage-number">Requests</th>
            <th scope="col" className="usage-number">Input</th>
            <th scope="col" className="usage-number">Cached</th>
            <th scope="col" className="usage-number">Output</th>
            <th scope="col" className="usage-number">Cost</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={`${day.day}\n${day.brain}\n${day.model}`} data-testid="usage-row" data-brain={day.brain} data-model={day.model} data-day={day.day}>
              <td>{day.day}</td>
              <th scope="row">
                {BRAINS[day.brain].label} <span className="usage-model">{day.model}</span>
              </th>
              <FigureCells figures={day} costTestId="usage-cost" />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="usage-total">
            <th scope="row" colSpan={2}>
              Total
            </th>
            <FigureCells figures={total} costTestId="usage-total-cost" />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** `pricing` counts the prices set or cleared: each prices a model's requests again, so the sums are asked for again. */
function UsageByDay({ pricing }: { readonly pricing: number }) {
  const [period, setPeriod] = useState<Period>('30');
  const since = firstDayOf(period, new Date());
  const { answer } = useAnswerFor<UsageDayView[]>(`usage\n${period}\n${pricing}`, () => api().getUsage(since === undefined ? {} : { since }));
  return (
    <section className="settings-section usage-section" aria-labelledby="usage-heading">
      <h3 id="usage-heading">Usage</h3>
      <p className="field-hint">
        Every request sent to a provider (each tool round of a reply, each part of a summary), per day in UTC. Input counts
        the cached part on every provider. Dollars are estimates from the prices below; your provider&apos;s bill is the
        authority.
      </p>
      <div className="settings-field">
        <label htmlFor="usage-period">Period</label>
        <select id="usage-period" data-testid="usage-period" value={period} onChange={(event) => isPeriod(event.target.value) && setPeriod(event.target.value)}>
          {Object.entries(PERIODS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {answer === null ? null : answer.status === 'error' ? (
        <p className="field-error" role="alert">
          {answer.message}
        </p>
      ) : (
        <UsageTable days={answer.value} />
      )}
    </section>
  );
}

/** Every provider request counted, per day (UTC), brain and model, in tokens and estimated dollars; and the prices. */
export function UsageSettings() {
  const [pricing, setPricing] = useState(0);
  return (
    <>
      <UsageByDay pricing={pricing} />
      <ModelPriceSettings onChanged={() => setPricing((count) => count + 1)} />
    </>
  );
}
