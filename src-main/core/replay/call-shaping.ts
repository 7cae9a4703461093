/**
 * Shared rules for replaying calls, used by every wire converter: how many, how long, which id, which name.
 */
import { bareToolName, sameToolKey, toolKeyOfWireName, type ToolKey } from '../../../src-shared/tool-key';
import type { ReplayCall, ReplayTurn, ToolDeclaration, TurnPlacement } from './types';

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

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Paths to every string in a JSON value, longest first. */
function stringLeaves(value: JsonValue, path: Array<string | number>, leaves: Array<{ path: Array<string | number>; length: number }>): void {
  if (typeof value === 'string') leaves.push({ path, length: value.length });
  else if (Array.isArray(value)) value.forEach((item, index) => stringLeaves(item, [...path, index], leaves));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) stringLeaves(item, [...path, key], leaves);
  }
}

function setAt(root: JsonValue, path: Array<string | number>, next: string): void {
  let cursor = root as Record<string | number, JsonValue>;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, JsonValue>;
  cursor[path[path.length - 1]!] = next;
}

function getAt(root: JsonValue, path: Array<string | number>): string {
  let cursor: JsonValue = root;
  for (const key of path) cursor = (cursor as Record<string | number, JsonValue>)[key]!;
  return cursor as string;
}

/**
 * Cuts an input to 500 characters of JSON while keeping it a valid object of the same shape: the longest strings are
 * shortened first. Returns whether anything was cut.
 */
export function cutInput(input: Record<string, unknown>): { input: Record<string, unknown>; cut: boolean } {
  const serialised = JSON.stringify(input);
  if (serialised.length <= MAX_CALL_CHARS) return { input, cut: false };
  const copy = JSON.parse(serialised) as JsonValue;
  for (let round = 0; round < 64 && JSON.stringify(copy).length > MAX_CALL_CHARS; round += 1) {
    const leaves: Array<{ path: Array<string | number>; length: number }> = [];
    stringLeaves(copy, [], leaves);
    leaves.sort((left, right) => right.length - left.length);
    const longest = leaves[0];
    if (!longest || longest.length <= 8) break;
    const excess = JSON.stringify(copy).length - MAX_CALL_CHARS;
    const current = getAt(copy, longest.path);
    // JSON escapes can make a string longer than its characters; cut at least half when one pass is not enough.
    const keep = Math.max(4, Math.min(current.length - excess - CUT_MARK.length, Math.floor(current.length / 2)));
    setAt(copy, longest.path, `${cutCodePoints(current, keep)}${CUT_MARK}`);
  }
  return { input: copy as Record<string, unknown>, cut: true };
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
  return `[System line, tool record: the assistant called ${bareToolName(call.name)} with ${JSON.stringify(call.input)}, which ${outcome}: ${call.answer}. That tool is not offered now.]`;
}

/**
 * Splits a turn's calls into the ones that replay natively and the text records for the rest. Only the history is
 * shaped to 12 calls of 500 characters: a live round is the loop the brain is in, and it reads its answers whole.
 */
export function partitionCalls(
  turn: ReplayTurn,
  tools: readonly ToolDeclaration[],
  placement: TurnPlacement,
): { native: ReplayCall[]; records: string[]; dropped: number } {
  const { calls, dropped } = placement === 'history' ? shapeCalls(turn.calls) : { calls: turn.calls, dropped: 0 };
  const native: ReplayCall[] = [];
  const records: string[] = [];
  for (const call of calls) {
    if (isDeclared(call, tools)) native.push(call);
    else records.push(undeclaredCallRecord(call));
  }
  return { native, records, dropped };
}
