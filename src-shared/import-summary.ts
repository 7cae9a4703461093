/**
 * An import's summary in one sentence, the same in the window and on the command line:
 * "212 conversations, 9,804 messages imported; 3 skipped: "Title" (why); …".
 */
import type { ImportSummaryView } from './api/views';
import { formatCount } from './format-count';

function count(amount: number, singular: string, plural: string): string {
  return `${formatCount(amount)} ${amount === 1 ? singular : plural}`;
}

export function describeImportSummary(summary: Pick<ImportSummaryView, 'conversations' | 'messages' | 'skipped'>): string {
  const imported = `${count(summary.conversations, 'conversation', 'conversations')}, ${count(summary.messages, 'message', 'messages')} imported`;
  if (summary.skipped.length === 0) return `${imported}.`;
  const reasons = summary.skipped.map(({ title, reason }) => `"${title}" (${reason})`).join('; ');
  return `${imported}; ${formatCount(summary.skipped.length)} skipped: ${reasons}.`;
}
