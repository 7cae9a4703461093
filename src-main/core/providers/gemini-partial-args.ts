/**
 * Gemini's streamed function-call arguments, assembled. With `toolConfig.functionCallingConfig.
 * streamFunctionCallArguments`, Vertex sends one call over several `functionCall` parts: the first names the function,
 * the later ones carry `partialArgs`, and `functionCall.willContinue` says another part of the same call follows. Each
 * `PartialArg` is `{jsonPath, stringValue | numberValue | boolValue | nullValue, willContinue}` (one value: the fields
 * are the proto's `oneof delta`); `jsonPath` is an RFC 9535 path such as `$.recipe.ingredients[0].name`, and a
 * `PartialArg.willContinue` says the value at that path goes on in a later PartialArg (a string sent in pieces).
 * See `FunctionCall.partial_args` and `PartialArg` in googleapis' google/cloud/aiplatform/v1beta1/content.proto and
 * https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling. Vertex streams as recorded in the
 * AI SDK's fixtures (vercel/ai, packages/google/src/__fixtures__) close a call with an empty `functionCall: {}`, or
 * end its last partialArgs part without `willContinue`.
 *
 * The rule this module keeps: the assembled object is exactly what the parts say, or the call fails with the reason.
 * A path that does not parse, a value where an earlier part put one of another shape, a second value for one path, a
 * gap in an array, or a string still waiting for its next piece when the call ends is never guessed around.
 */
import { isRecord, type JsonRecord } from './json-fields';
import { truncate } from './stream-mapping';

/** One step of a path: a member name or an array index. */
export type PathStep = string | number;

/** RFC 9535 `member-name-shorthand`: `name-first *name-char`. */
const MEMBER_NAME_SHORTHAND = /^[A-Za-z_\u0080-\uD7FF\uE000-\u{10FFFF}][A-Za-z0-9_\u0080-\uD7FF\uE000-\u{10FFFF}]*/u;
/** RFC 9535 blank space `S`: space, tab, line feed, carriage return. */
const BLANK = /^[ \t\n\r]*/;
/** Deeper paths than any tool schema needs would only build objects too deep to store and replay. */
export const MAX_PATH_STEPS = 64;
/** Names that must never become keys by path: `$.__proto__.x` would otherwise reach Object.prototype downstream. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The steps of a path that names exactly one place (RFC 9535 singular query: the root `$`, then `.name`, `['name']`,
 * `["name"]` or `[index]`), or null for anything else: wildcards, slices, filters, descendants, several selectors,
 * negative indexes (they count from an end that is not there yet), or text that is no path at all.
 */
export function parseJsonPath(path: string): PathStep[] | null {
  if (!path.startsWith('$')) return null;
  const steps: PathStep[] = [];
  let rest = path.slice(1);
  for (;;) {
    rest = rest.replace(BLANK, '');
    if (rest === '') return steps;
    if (rest.startsWith('.')) {
      if (rest.startsWith('..')) return null;
      const name = MEMBER_NAME_SHORTHAND.exec(rest.slice(1))?.[0];
      if (name === undefined) return null;
      steps.push(name);
      rest = rest.slice(1 + name.length);
    } else if (rest.startsWith('[')) {
      const selection = readBracketedSelector(rest.slice(1).replace(BLANK, ''));
      if (selection === null) return null;
      const closing = selection.rest.replace(BLANK, '');
      if (!closing.startsWith(']')) return null;
      steps.push(selection.step);
      rest = closing.slice(1);
    } else {
      return null;
    }
  }
}

/** A name selector (a quoted string literal) or a non-negative index selector, and the text after it. */
function readBracketedSelector(text: string): { readonly step: PathStep; readonly rest: string } | null {
  const quote = text[0];
  if (quote === "'" || quote === '"') return readStringLiteral(text, quote);
  const digits = /^(0|[1-9][0-9]*)/.exec(text)?.[0];
  if (digits === undefined) return null;
  const index = Number(digits);
  return Number.isSafeInteger(index) ? { step: index, rest: text.slice(digits.length) } : null;
}

const ESCAPED: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '/': '/', '\\': '\\' };

/** RFC 9535 `string-literal`: the other quote unescaped, this quote and the JSON escapes after a backslash. */
function readStringLiteral(text: string, quote: "'" | '"'): { readonly step: string; readonly rest: string } | null {
  let name = '';
  let position = 1;
  while (position < text.length) {
    const character = text.charAt(position);
    if (character === quote) return { step: name, rest: text.slice(position + 1) };
    if (character < ' ') return null;
    if (character !== '\\') {
      name += character;
      position += 1;
      continue;
    }
    const escaped = text.charAt(position + 1);
    if (escaped === quote || ESCAPED[escaped] !== undefined) {
      name += escaped === quote ? quote : ESCAPED[escaped];
      position += 2;
      continue;
    }
    if (escaped !== 'u') return null;
    const unit = hexUnit(text, position + 2);
    if (unit === null || (unit >= 0xdc00 && unit <= 0xdfff)) return null;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // A high surrogate is only half a character: its low half must follow as `\uDC00`-`\uDFFF`.
      const low = text.startsWith('\\u', position + 6) ? hexUnit(text, position + 8) : null;
      if (low === null || low < 0xdc00 || low > 0xdfff) return null;
      name += String.fromCharCode(unit, low);
      position += 12;
    } else {
      name += String.fromCharCode(unit);
      position += 6;
    }
  }
  return null;
}

function hexUnit(text: string, start: number): number | null {
  const hex = text.slice(start, start + 4);
  return /^[0-9A-Fa-f]{4}$/.test(hex) ? Number.parseInt(hex, 16) : null;
}

/** A path written back in one spelling (dot names where RFC 9535 allows them): the key of a place, and its name in messages. */
export function formatJsonPath(steps: readonly PathStep[]): string {
  return `$${steps
    .map((step) => {
      if (typeof step === 'number') return `[${step}]`;
      return MEMBER_NAME_SHORTHAND.exec(step)?.[0] === step ? `.${step}` : `[${JSON.stringify(step)}]`;
    })
    .join('')}`;
}

/** One PartialArg's value; null when it carries none or several (the proto's `oneof delta` holds exactly one). */
function partialArgValue(partialArg: JsonRecord): { readonly value: string | number | boolean | null } | null {
  const values: (string | number | boolean | null)[] = [];
  if (typeof partialArg.stringValue === 'string') values.push(partialArg.stringValue);
  // A double; JSON cannot carry NaN or Infinity, and proto3 JSON spells them as strings.
  if (typeof partialArg.numberValue === 'number' && Number.isFinite(partialArg.numberValue)) values.push(partialArg.numberValue);
  if (typeof partialArg.boolValue === 'boolean') values.push(partialArg.boolValue);
  // `google.protobuf.NullValue`: JSON null in proto3's JSON mapping, `"NULL_VALUE"` in the REST discovery documents.
  if (Object.hasOwn(partialArg, 'nullValue') && (partialArg.nullValue === null || partialArg.nullValue === 'NULL_VALUE')) values.push(null);
  const [value] = values;
  return values.length === 1 && value !== undefined ? { value } : null;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value === 'number' ? 'a number' : 'a string';
}

type Container = Record<string, unknown> | unknown[];

/** Own-property reads: a name like `toString` is a key like any other, never something inherited. */
function readSlot(container: Container, step: PathStep): unknown {
  if (Array.isArray(container)) return typeof step === 'number' ? container[step] : undefined;
  return typeof step === 'string' && Object.hasOwn(container, step) ? container[step] : undefined;
}

/** Defines the slot as an own, plain data property, whatever the name. */
function writeSlot(container: Container, step: PathStep, value: unknown): void {
  Object.defineProperty(container, step, { value, enumerable: true, writable: true, configurable: true });
}

/** The arguments of one call, assembled from its parts in the order they arrive. */
export class StreamedArguments {
  private readonly root: Record<string, unknown> = {};
  /** Places whose string another PartialArg continues (the last piece for them said `willContinue`). */
  private readonly continuing = new Set<string>();

  /** The arguments as assembled so far. */
  get value(): Record<string, unknown> {
    return this.root;
  }

  /** Adds `args` sent whole in a part: each of its keys is a value of its own. Returns what is wrong, or null. */
  addWhole(args: JsonRecord): string | null {
    for (const [key, value] of Object.entries(args)) {
      if (Object.hasOwn(this.root, key)) return `args gives ${formatJsonPath([key])} a second value`;
      writeSlot(this.root, key, value);
    }
    return null;
  }

  /** Applies one PartialArg. Returns what is wrong with it, or null. */
  add(partialArg: unknown): string | null {
    if (!isRecord(partialArg)) return 'a partialArgs entry is not an object';
    const path = typeof partialArg.jsonPath === 'string' ? partialArg.jsonPath : '';
    const shownPath = JSON.stringify(truncate(path, 120));
    const steps = parseJsonPath(path);
    if (steps === null) return `the jsonPath ${shownPath} is not an RFC 9535 path to one place`;
    if (steps.length === 0) return 'a partialArgs entry sets the whole arguments ("$"), not one of them';
    if (steps.length > MAX_PATH_STEPS) return `the jsonPath ${shownPath} nests deeper than ${MAX_PATH_STEPS} levels`;
    const reserved = steps.find((step) => typeof step === 'string' && RESERVED_NAMES.has(step));
    if (reserved !== undefined) return `the jsonPath ${shownPath} uses the reserved name "${reserved}"`;
    const place = formatJsonPath(steps);
    const shownPlace = truncate(place, 120);
    const carried = partialArgValue(partialArg);
    if (carried === null) return `the part for ${shownPlace} carries ${hasAnyValueField(partialArg) ? 'more than one value or an unreadable one' : 'no value'}`;
    const { value } = carried;
    const willContinue = partialArg.willContinue === true;
    if (willContinue && typeof value !== 'string') return `the part for ${shownPlace} says ${kindOf(value)} continues; only a string arrives in pieces`;

    const located = this.containerFor(steps);
    if (typeof located === 'string') return located;
    const { container, last } = located;
    const existing = readSlot(container, last);
    if (existing === undefined) {
      if (Array.isArray(container) && typeof last === 'number' && last > container.length) return gapProblem(steps, container.length);
      writeSlot(container, last, value);
    } else if (this.continuing.has(place) && typeof existing === 'string' && typeof value === 'string') {
      writeSlot(container, last, existing + value);
    } else if (this.continuing.has(place)) {
      return `${shownPlace} continues a string with ${kindOf(value)}`;
    } else {
      return typeof existing === 'object' && existing !== null
        ? `${shownPlace} gets ${kindOf(value)}, but earlier parts made it ${kindOf(existing)}`
        : `${shownPlace} gets a second value`;
    }
    if (willContinue) this.continuing.add(place);
    else this.continuing.delete(place);
    return null;
  }

  /** What is wrong with ending the call here (a string still waiting for its next piece), or null. */
  unfinished(): string | null {
    const [open] = this.continuing;
    return open === undefined ? null : `the call ended while the string at ${truncate(open, 120)} was still coming`;
  }

  /** The object or array that holds the path's last step, made on the way where missing; or what is in the way. */
  private containerFor(steps: readonly PathStep[]): { readonly container: Container; readonly last: PathStep } | string {
    let container: Container = this.root;
    for (const [index, step] of steps.entries()) {
      const shape = this.checkShape(container, steps, index);
      if (shape !== null) return shape;
      const next = steps[index + 1];
      if (next === undefined) return { container, last: step };
      const existing = readSlot(container, step);
      if (existing === undefined) {
        if (Array.isArray(container) && typeof step === 'number' && step > container.length) return gapProblem(steps.slice(0, index + 1), container.length);
        const made: Container = typeof next === 'number' ? [] : {};
        writeSlot(container, step, made);
        container = made;
      } else if (typeof existing === 'object' && existing !== null) {
        container = existing as Container;
      } else {
        return `${truncate(formatJsonPath(steps), 120)} goes inside ${truncate(formatJsonPath(steps.slice(0, index + 1)), 120)}, which an earlier part set to ${kindOf(existing)}`;
      }
    }
    return 'a partialArgs entry names no place';
  }

  /** A name step needs an object and an index step an array. */
  private checkShape(container: Container, steps: readonly PathStep[], index: number): string | null {
    const step = steps[index];
    if (Array.isArray(container) === (typeof step === 'number')) return null;
    const holder = index === 0 ? 'the arguments' : truncate(formatJsonPath(steps.slice(0, index)), 120);
    return `${truncate(formatJsonPath(steps), 120)} treats ${holder} as ${typeof step === 'number' ? 'an array' : 'an object'}, but ${index === 0 ? 'they are' : 'it is'} ${kindOf(container)}`;
  }
}

function hasAnyValueField(partialArg: JsonRecord): boolean {
  return ['stringValue', 'numberValue', 'boolValue', 'nullValue'].some((field) => Object.hasOwn(partialArg, field));
}

function gapProblem(steps: readonly PathStep[], length: number): string {
  const place = truncate(formatJsonPath(steps), 120);
  return `${place} leaves a gap: the array holds ${length} item${length === 1 ? '' : 's'} so far`;
}
