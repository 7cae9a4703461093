/** What the Context windows settings' fields mean, checked before anything is sent (the Api checks them again). */
import { MAX_CONTEXT_WINDOW, MIN_CONTEXT_WINDOW } from '../../src-shared/context-windows';
import { formatCount } from '../../src-shared/format-count';

export type FieldParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** The smallest output limit the Api takes. */
export const MIN_OUTPUT_LIMIT = 256;

/** A whole number as people type it: digit groups may be separated by commas, spaces or underscores. */
function wholeNumber(text: string): number | null {
  const compact = text.trim().replace(/[,_\s]/g, '');
  if (!/^\d+$/.test(compact)) return null;
  return Number(compact);
}

/** The warning and emergency lines, in whole percent: warning 5–95, emergency 10–99, warning below emergency. */
export function parseContextLines(
  warningText: string,
  emergencyText: string,
): FieldParse<{ warningPercent: number; emergencyPercent: number }> {
  const warningPercent = wholeNumber(warningText);
  const emergencyPercent = wholeNumber(emergencyText);
  if (warningPercent === null || warningPercent < 5 || warningPercent > 95) {
    return { ok: false, problem: 'The warning line is a whole percentage from 5 to 95.' };
  }
  if (emergencyPercent === null || emergencyPercent < 10 || emergencyPercent > 99) {
    return { ok: false, problem: 'The emergency line is a whole percentage from 10 to 99.' };
  }
  if (warningPercent >= emergencyPercent) {
    return { ok: false, problem: 'The warning line must be below the emergency line.' };
  }
  return { ok: true, value: { warningPercent, emergencyPercent } };
}

/**
 * A window override: each field empty for the table's value, else a whole number of tokens. The output limit must be
 * smaller than the window (the one given, else `tableWindow`).
 */
export function parseModelWindow(
  windowText: string,
  outputText: string,
  tableWindow: number | null,
): FieldParse<{ contextWindow: number | null; outputLimit: number | null }> {
  const contextWindow = windowText.trim() === '' ? null : wholeNumber(windowText);
  const outputLimit = outputText.trim() === '' ? null : wholeNumber(outputText);
  const limits = `${formatCount(MIN_CONTEXT_WINDOW)} to ${formatCount(MAX_CONTEXT_WINDOW)}`;
  if (windowText.trim() !== '' && (contextWindow === null || contextWindow < MIN_CONTEXT_WINDOW || contextWindow > MAX_CONTEXT_WINDOW)) {
    return { ok: false, problem: `The window is a whole number of tokens from ${limits}.` };
  }
  if (outputText.trim() !== '' && (outputLimit === null || outputLimit < MIN_OUTPUT_LIMIT || outputLimit > MAX_CONTEXT_WINDOW)) {
    return { ok: false, problem: `The output limit is a whole number of tokens, at least ${MIN_OUTPUT_LIMIT}.` };
  }
  const window = contextWindow ?? tableWindow;
  if (outputLimit !== null && window !== null && outputLimit >= window) {
    return { ok: false, problem: 'The output limit must be smaller than the window.' };
  }
  return { ok: true, value: { contextWindow, outputLimit } };
}
