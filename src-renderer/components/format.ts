import type { Usage } from '../../src-shared/api';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const fullDateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A short time for the conversation list: the time today, the date this year, else the full date. */
export function shortTimestamp(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (date.toDateString() === now.toDateString()) return timeFormat.format(date);
  if (date.getFullYear() === now.getFullYear()) return dateFormat.format(date);
  return fullDateFormat.format(date);
}

/** "1,204 in · 356 out", or null when nothing was counted. */
export function usageSummary(usage: Usage | null): string | null {
  if (usage === null) return null;
  const parts: string[] = [];
  const count = (value: number | undefined, label: string): void => {
    if (value !== undefined && value > 0) parts.push(`${value.toLocaleString('en-US')} ${label}`);
  };
  count(usage.inputTokens, 'in');
  count(usage.outputTokens, 'out');
  count(usage.cacheReadTokens, 'cached');
  count(usage.reasoningTokens, 'reasoning');
  return parts.length === 0 ? null : `${parts.join(' · ')} tokens`;
}
