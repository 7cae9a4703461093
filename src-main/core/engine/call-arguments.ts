/**
 * A tool call's arguments as Anybrain reads them, decided as the call arrives from the model. Estimating, cutting and
 * replaying a call walk its input level by level, so arguments nested thousands of levels deep (a dozen kilobytes of
 * JSON) overflowed the stack when the next request was built and ended the host. Past the limits here, the call is
 * not run: its input becomes a flat stand-in holding the start of its text (for the receipt and the replay), and the
 * model is answered with an error it can act on. Everything here walks with a stack of its own, never recursion.
 */
import { formatCount } from '../../../src-shared/format-count';
import { MAX_JSON_DEPTH } from '../transcripts/json-depth';
import type { ToolCallPart } from './reply-draft';

/** More than any tool's arguments need (a file's whole text included); the replay cuts inputs to 500 characters anyway. */
export const MAX_CALL_ARGUMENTS_CHARS = 1_000_000;

/** How much of refused arguments' text the stand-in keeps. */
export const KEPT_ARGUMENTS_CHARS = 500;

/** The stand-in's one field. */
export const UNREAD_ARGUMENTS_FIELD = 'arguments_not_read';

/** A call the stream asked for; `notRun` is the error it is answered with instead of running, when it is not run. */
export type PendingCall = ToolCallPart & { readonly notRun?: string };

type Frame = { readonly value: unknown; readonly depth: number };

/** Why `input` is past the limits, or null: deeper than `MAX_JSON_DEPTH`, or longer than `MAX_CALL_ARGUMENTS_CHARS` as JSON. */
export function argumentsProblem(input: Record<string, unknown>): 'too-deep' | 'too-large' | null {
  const pending: Frame[] = [{ value: input, depth: 0 }];
  let chars = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value === 'string') chars += value.length + 2;
    else if (typeof value !== 'object' || value === null) chars += String(value).length;
    else {
      if (depth + 1 > MAX_JSON_DEPTH) return 'too-deep';
      chars += 2;
      if (Array.isArray(value)) {
        for (const item of value) pending.push({ value: item, depth: depth + 1 });
        chars += value.length;
      } else {
        for (const [key, item] of Object.entries(value)) {
          chars += key.length + 4;
          pending.push({ value: item, depth: depth + 1 });
        }
      }
    }
    if (chars > MAX_CALL_ARGUMENTS_CHARS) return 'too-large';
  }
  return null;
}

/** The start of `value` as JSON, at most `limit` characters, written without recursion (`JSON.stringify` recurses). */
export function jsonPrefix(value: unknown, limit: number): string {
  let text = '';
  // Each entry is a piece of text still to write, or a value still to serialise.
  const pending: Array<{ readonly text: string } | { readonly value: unknown }> = [{ value }];
  while (pending.length > 0 && text.length < limit) {
    const next = pending.pop()!;
    if ('text' in next) {
      text += next.text;
      continue;
    }
    const current = next.value;
    if (typeof current !== 'object' || current === null) {
      text += JSON.stringify(current) ?? 'null';
      continue;
    }
    const entries = Array.isArray(current) ? current.map((item) => ['', item] as const) : Object.entries(current);
    const [open, close] = Array.isArray(current) ? ['[', ']'] : ['{', '}'];
    text += open;
    pending.push({ text: close });
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index]!;
      pending.push({ value: item });
      const separator = index > 0 ? ',' : '';
      pending.push({ text: Array.isArray(current) ? separator : `${separator}${JSON.stringify(key)}:` });
    }
  }
  return text.length > limit ? text.slice(0, limit) : text;
}

/** The call as Anybrain runs it: unchanged within the limits, else a stand-in that is not run. */
export function readCallArguments(call: ToolCallPart): PendingCall {
  const problem = argumentsProblem(call.input);
  if (problem === null) return call;
  const shown = jsonPrefix(call.input, KEPT_ARGUMENTS_CHARS + 1);
  const kept = shown.length > KEPT_ARGUMENTS_CHARS ? `${shown.slice(0, KEPT_ARGUMENTS_CHARS)}… [cut]` : shown;
  const notRun =
    problem === 'too-deep'
      ? `Anybrain did not run this call: its arguments nest more than ${MAX_JSON_DEPTH} levels deep. Call the tool again with flatter arguments.`
      : `Anybrain did not run this call: its arguments are longer than ${formatCount(MAX_CALL_ARGUMENTS_CHARS)} characters. Call the tool again with less in one call.`;
  return { ...call, input: { [UNREAD_ARGUMENTS_FIELD]: kept }, notRun };
}
