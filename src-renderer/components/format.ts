import type { Usage } from '../../src-shared/api';
import { formatCount } from '../../src-shared/format-count';

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

const messageTimeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const messageDayTimeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const messageFullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });

/**
 * A message's time in the person's locale: `shown` is the time today and the day and time before (a long conversation
 * spans days), `full` the whole date for a tooltip. Null when the time cannot be read.
 */
export function messageTimestamp(iso: string, now: Date = new Date()): { shown: string; full: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const shown = date.toDateString() === now.toDateString() ? messageTimeFormat.format(date) : messageDayTimeFormat.format(date);
  return { shown, full: messageFullFormat.format(date) };
}

/** "12 s", "2 min 5 s": whole seconds, never below one (a brain that thought at all thought for a moment). */
export function secondsText(milliseconds: number): string {
  const seconds = Math.max(1, Math.round(milliseconds / 1_000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** "1,204 in · 356 out", or null when nothing was counted. */
export function usageSummary(usage: Usage | null): string | null {
  if (usage === null) return null;
  const parts: string[] = [];
  const count = (value: number | undefined, label: string): void => {
    if (value !== undefined && value > 0) parts.push(`${formatCount(value)} ${label}`);
  };
  count(usage.inputTokens, 'in');
  count(usage.outputTokens, 'out');
  count(usage.cacheReadTokens, 'cached');
  count(usage.reasoningTokens, 'reasoning');
  return parts.length === 0 ? null : `${parts.join(' · ')} tokens`;
}

/** "320 ms", "4.2 s", "2 min 5 s"; null when the end is unknown or the times cannot be read. */
export function durationText(startedAt: string, endedAt: string | null): string | null {
  if (endedAt === null) return null;
  const milliseconds = Date.parse(endedAt) - Date.parse(startedAt);
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return null;
  if (milliseconds < 1_000) return `${Math.round(milliseconds)} ms`;
  const seconds = milliseconds / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const wholeSeconds = Math.round(seconds);
  return `${Math.floor(wholeSeconds / 60)} min ${wholeSeconds % 60} s`;
}

/** A value as indented JSON for reading; text that is not JSON-serialisable is shown as it is. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return 'No input';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A JSON document re-indented for reading; anything that does not parse is returned unchanged. */
export function prettyJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** "512 bytes", "12 KB", "3.4 MB": the file sizes the composer names (1 KB = 1,024 bytes, as file managers count). */
export function byteSizeText(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const kilobytes = bytes / 1024;
  if (kilobytes < 1024) return `${Math.round(kilobytes)} KB`;
  const megabytes = kilobytes / 1024;
  return `${megabytes < 10 ? Number(megabytes.toFixed(1)) : Math.round(megabytes)} MB`;
}
