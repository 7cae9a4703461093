/**
 * Shared rules for replaying calls, used by every wire converter: how many, how long, which id, which name.
 */
import { imageLabel } from '../../../src-shared/tool-images';
import { bareToolName, sameToolKey, toolKeyOfWireName, type ToolKey } from '../../../src-shared/tool-key';
import type { ReplayCall, ReplayImage, ReplayTurn, ToolDeclaration, TurnPlacement } from './types';

/** A reply in the history replays at most its last 12 calls (the reply being written keeps all of its own). */
export const MAX_REPLAYED_CALLS = 12;
/** Each input (as JSON) and answer of a reply in the history is cut to 500 characters. */
export const MAX_CALL_CHARS = 500;

const CUT_MARK = '…';
const ANSWER_CUT_NOTE = ' [cut]';

/** Cuts at a code point boundary so a cut never splits an emoji or a surrogate pair. */
function cutCodePoints(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = maxLength;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

export function cutAnswer(answer: string): string {
  if (answer.length <= MAX_CALL_CHARS) return answer;
  return `${cutCodePoints(answer, MAX_CALL_CHARS - CUT_MARK.length - ANSWER_CUT_NOTE.length)}${CUT_MARK}${ANSWER_CUT_NOTE}`;
}

/**
 * The labelled line that stands in for an image a request does not show: the history carries no image bytes (see
 * `ReplayImage`), and the reply being written shows them only to a brain that takes them.
 */
export function imageStandIn(image: ReplayImage): string {
  return `[${imageLabel(image)}: ${image.data === undefined ? 'not replayed' : 'not shown to this brain'}]`;
}

/** An answer's text followed by one stand-in line per image. */
export function withImageStandIns(answer: string, images: readonly ReplayImage[]): string {
  return [answer, ...images.map(imageStandIn)].filter((line) => line.length > 0).join('\n');
}

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A parsed JSON value with its serialised length (`size`) and the least it can be cut to while keeping its keys. */
type Measured = { readonly value: JsonValue; readonly size: number; readonly least: number } & (
  | { readonly kind: 'leaf'; readonly value: null | boolean | number | string }
  | { readonly kind: 'array'; readonly items: readonly Measured[] }
  | { readonly kind: 'object'; readonly entries: ReadonlyArray<readonly [string, Measured]> }
);

/** The key of the last-resort form: an input whose keys alone exceed the limit replays as the start of its JSON text. */
const CUT_INPUT_KEY = '[input cut]';

function serialisedLength(value: JsonValue): number {
  return JSON.stringify(value).length;
}

/** What stands for the items an array lost: `"… [3 items cut]"`. */
function itemsCutMark(count: number): string {
  return `${CUT_MARK} [${count} item${count === 1 ? '' : 's'} cut]`;
}

function measure(value: JsonValue): Measured {
  if (Array.isArray(value)) {
    const items = value.map(measure);
    const size = 2 + items.reduce((sum, item) => sum + item.size, 0) + Math.max(0, items.length - 1);
    return { kind: 'array', value, items, size, least: items.length === 0 ? size : Math.min(size, 2 + serialisedLength(itemsCutMark(items.length))) };
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, measure(item)] as const);
    const framing = 2 + entries.reduce((sum, [key]) => sum + serialisedLength(key) + 1, 0) + Math.max(0, entries.length - 1);
    const size = framing + entries.reduce((sum, [, item]) => sum + item.size, 0);
    return { kind: 'object', value, entries, size, least: framing + entries.reduce((sum, [, item]) => sum + item.least, 0) };
  }
  const size = serialisedLength(value);
  // A string can always be cut to `"…"`; a number, boolean or null stays as it is.
  return { kind: 'leaf', value, size, least: typeof value === 'string' ? Math.min(size, 2 + CUT_MARK.length) : size };
}

/** The longest start of `text` (whole code points) that serialises, with the cut mark, within `budget` characters. */
function cutStringTo(text: string, budget: number): string {
  let kept = 0;
  let length = 2 + CUT_MARK.length;
  for (const codePoint of text) {
    const escaped = serialisedLength(codePoint) - 2;
    if (length + escaped > budget) break;
    length += escaped;
    kept += codePoint.length;
  }
  return `${text.slice(0, kept)}${CUT_MARK}`;
}

/**
 * Budgets for `values` within `total` (at least the sum of their least): each value gets its least, and the rest goes
 * to all alike up to a common cap, so only values above the cap are cut, the largest most.
 */
function shareBudget(values: readonly Measured[], total: number): number[] {
  const budgetAt = (cap: number) => values.map((value) => Math.max(value.least, Math.min(value.size, cap)));
  const sum = (budgets: readonly number[]) => budgets.reduce((left, right) => left + right, 0);
  let low = 0;
  let high = Math.max(0, ...values.map((value) => value.size));
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (sum(budgetAt(cap)) <= total) low = cap;
    else high = cap - 1;
  }
  return budgetAt(low);
}

/**
 * The value cut to at most `budget` characters of JSON; `budget` is at least `least`. Objects keep every key and share
 * the budget among their values; arrays keep their first items whole where they can, then a mark of how many were cut.
 */
function fitValue(measured: Measured, budget: number): JsonValue {
  switch (measured.kind) {
    case 'leaf':
      return measured.size <= budget || typeof measured.value !== 'string' ? measured.value : cutStringTo(measured.value, budget);
    case 'object': {
      if (measured.size <= budget) return measured.value;
      const values = measured.entries.map(([, item]) => item);
      const framing = measured.least - values.reduce((sum, item) => sum + item.least, 0);
      const budgets = shareBudget(values, budget - framing);
      return Object.fromEntries(measured.entries.map(([key, item], index) => [key, fitValue(item, budgets[index]!)]));
    }
    case 'array': {
      if (measured.size <= budget) return measured.value;
      const { items } = measured;
      // The most whole items that fit before the mark of the rest.
      let used = 2;
      let whole = 0;
      while (whole < items.length - 1 && used + items[whole]!.size + 1 + serialisedLength(itemsCutMark(items.length - whole - 1)) <= budget) {
        used += items[whole]!.size + 1;
        whole += 1;
      }
      if (whole > 0) return [...items.slice(0, whole).map((item) => item.value), itemsCutMark(items.length - whole)];
      const first = items[0]!;
      const rest = items.length - 1;
      const firstBudget = budget - 2 - (rest > 0 ? 1 + serialisedLength(itemsCutMark(rest)) : 0);
      if (firstBudget >= first.least) return [fitValue(first, firstBudget), ...(rest > 0 ? [itemsCutMark(rest)] : [])];
      return [itemsCutMark(items.length)];
    }
    default: {
      const unreachable: never = measured;
      throw new Error(`Unknown JSON value ${String(unreachable)}`);
    }
  }
}

/**
 * Cuts an input to at most 500 characters of JSON. It stays a valid object with the same top-level keys, and every
 * object in it keeps all its keys: long strings are shortened (the longest most) and long arrays keep their first items
 * with a mark of how many were cut. Only an input whose keys alone exceed the limit (hundreds of keys, deep nesting)
 * becomes `{"[input cut]": "<the start of its JSON>…"}`. Returns whether anything was cut.
 */
export function cutInput(input: Record<string, unknown>): { input: Record<string, unknown>; cut: boolean } {
  const serialised = JSON.stringify(input);
  if (serialised.length <= MAX_CALL_CHARS) return { input, cut: false };
  const measured = measure(JSON.parse(serialised) as JsonValue);
  if (measured.least <= MAX_CALL_CHARS) return { input: fitValue(measured, MAX_CALL_CHARS) as Record<string, unknown>, cut: true };
  const framing = serialisedLength({ [CUT_INPUT_KEY]: '' });
  return { input: { [CUT_INPUT_KEY]: cutStringTo(serialised, MAX_CALL_CHARS - framing + 2) }, cut: true };
}

/** The last 12 calls of a reply, each cut to size. */
export function shapeCalls(calls: readonly ReplayCall[]): { calls: ReplayCall[]; dropped: number } {
  const kept = calls.slice(-MAX_REPLAYED_CALLS);
  return {
    dropped: calls.length - kept.length,
    calls: kept.map((call) => ({ ...call, input: cutInput(call.input).input, answer: cutAnswer(call.answer) })),
  };
}

/** A replayed call's id: derived from the stored message id and the call's position, never random. */
export function deriveCallId(messageId: string, position: number): string {
  return `call_${messageId}_${position}`;
}

/** Anthropic rejects tool_use ids outside ^[a-zA-Z0-9_-]+$. */
export function sanitiseAnthropicId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : 'call';
}

/** OpenAI Responses accepts a call_id of at most 64 characters. */
export function sanitiseResponsesCallId(id: string): string {
  return id.length <= 64 ? id : id.slice(0, 64);
}

export { bareToolName };

/**
 * The tool a call was made to: its recorded server when known (a built-in's is null), else the server its name
 * carries. A call that ran on server `files` is (files, read_file) even though its stored name is the bare `read_file`.
 */
function callKey(call: ReplayCall): ToolKey {
  const named = toolKeyOfWireName(call.name);
  return call.server === undefined ? named : { server: call.server, tool: named.tool };
}

/** The declaration of the same tool (same server, same bare name) this turn, if it is offered. */
function declarationFor(call: ReplayCall, tools: readonly ToolDeclaration[]): ToolDeclaration | undefined {
  const key = callKey(call);
  return tools.find((tool) => sameToolKey(toolKeyOfWireName(tool.name), key));
}

/** Whether a call can replay natively: the same tool is declared this turn. */
export function isDeclared(call: ReplayCall, tools: readonly ToolDeclaration[]): boolean {
  return declarationFor(call, tools) !== undefined;
}

/** The declared wire name for a call's tool (the same tool, as this turn declares it). */
export function declaredName(call: ReplayCall, tools: readonly ToolDeclaration[]): string {
  return declarationFor(call, tools)?.name ?? call.name;
}

/**
 * A call to a tool that is not offered this turn: a labelled text record the provider cannot reject, in place of a
 * native call.
 */
export function undeclaredCallRecord(call: ReplayCall): string {
  const outcome = call.isError ? 'failed with' : 'answered';
  const answer = withImageStandIns(call.answer, call.images ?? []);
  return `[System line, tool record: the assistant called ${bareToolName(call.name)} with ${JSON.stringify(call.input)}, which ${outcome}: ${answer}. That tool is not offered now.]`;
}

/**
 * Splits a turn's calls into the ones that replay natively and the text records for the rest. Only the history (and
 * an older reply's written rounds) is shaped to 12 calls of 500 characters: a live round is the loop the brain is in,
 * and it reads its answers whole.
 */
export function partitionCalls(
  turn: ReplayTurn,
  tools: readonly ToolDeclaration[],
  placement: TurnPlacement,
): { native: ReplayCall[]; records: string[]; dropped: number } {
  const { calls, dropped } = placement === 'live' ? { calls: turn.calls, dropped: 0 } : shapeCalls(turn.calls);
  const native: ReplayCall[] = [];
  const records: string[] = [];
  for (const call of calls) {
    if (isDeclared(call, tools)) native.push(call);
    else records.push(undeclaredCallRecord(call));
  }
  return { native, records, dropped };
}
