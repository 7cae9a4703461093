/**
 * Test support: function calls as Vertex streams them with `streamFunctionCallArguments` (the shape of the Vertex
 * streams recorded in vercel/ai's packages/google/src/__fixtures__): a first part with the name, `willContinue` and the signature; then parts of `partialArgs`, one PartialArg
 * per scalar in document order, a string sent in pieces (`willContinue` on each) closed by an empty piece; then an
 * empty `functionCall: {}`, or a last partialArgs part without `willContinue`, ends the call.
 */
import type { Random } from './stream-fuzzing';

export type PartialArg = Readonly<Record<string, unknown>>;

const SHORTHAND_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A member name as a JSON path writes it: `.name`, or a single-quoted literal (written here independently of the reader). */
function memberStep(name: string): string {
  if (SHORTHAND_NAME.test(name)) return `.${name}`;
  const escaped = Array.from(name, (character) => {
    if (character === "'" || character === '\\') return `\\${character}`;
    const code = character.charCodeAt(0);
    return code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : character;
  }).join('');
  return `['${escaped}']`;
}

/**
 * The PartialArgs of these arguments, in order. `pieces` cuts each string; like the recorded streams, every piece
 * says `willContinue` and an empty piece closes the string. Empty objects and arrays have no scalar to carry them.
 */
export function partialArgsOf(args: Readonly<Record<string, unknown>>, pieces: (text: string) => readonly string[] = (text) => [text]): PartialArg[] {
  const partialArgs: PartialArg[] = [];
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) visit(item, `${path}${memberStep(key)}`);
    else if (typeof value === 'string') {
      for (const piece of pieces(value)) partialArgs.push({ jsonPath: path, stringValue: piece, willContinue: true });
      partialArgs.push({ jsonPath: path, stringValue: '' });
    } else if (typeof value === 'number') partialArgs.push({ jsonPath: path, numberValue: value });
    else if (typeof value === 'boolean') partialArgs.push({ jsonPath: path, boolValue: value });
    else partialArgs.push({ jsonPath: path, nullValue: 'NULL_VALUE' });
  };
  visit(args, '$');
  return partialArgs;
}

export interface StreamedCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly signature?: string;
}

/** The `functionCall` parts of one call, each PartialArg in a part of its own, closed by an empty functionCall. */
export function streamedCallParts(call: StreamedCall, pieces?: (text: string) => readonly string[]): unknown[] {
  return [
    { functionCall: { name: call.name, willContinue: true }, ...(call.signature === undefined ? {} : { thoughtSignature: call.signature }) },
    ...partialArgsOf(call.args, pieces).map((partialArg) => ({ functionCall: { partialArgs: [partialArg], willContinue: true } })),
    { functionCall: {} },
  ];
}

/** A streamGenerateContent chunk holding these parts, as Vertex sends it. */
export function geminiChunk(parts: readonly unknown[], finishReason?: string, usageMetadata?: Record<string, unknown>): unknown {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }],
    ...(usageMetadata === undefined ? {} : { usageMetadata }),
    modelVersion: 'gemini-3.1-pro-preview',
  };
}

/** Cuts a string at random code point boundaries (never inside a surrogate pair). */
export function randomPieces(random: Random): (text: string) => string[] {
  return (text) => {
    const characters = Array.from(text);
    const pieces: string[] = [];
    let start = 0;
    while (start < characters.length) {
      const length = 1 + random.integer(Math.max(1, Math.min(12, characters.length - start)));
      pieces.push(characters.slice(start, start + length).join(''));
      start += length;
    }
    return pieces.length === 0 ? [''] : pieces;
  };
}

/**
 * One call's parts with the PartialArgs grouped at random (one to three per part), idle `{willContinue: true}` parts
 * between them as Vertex sends between array items, and either an empty functionCall or its last partialArgs part
 * without `willContinue` closing it: both endings are in the recorded streams.
 */
export function randomlyStreamedCallParts(call: StreamedCall, random: Random): unknown[] {
  const partialArgs = partialArgsOf(call.args, randomPieces(random));
  const parts: Record<string, unknown>[] = [
    { functionCall: { name: call.name, willContinue: true }, ...(call.signature === undefined ? {} : { thoughtSignature: call.signature }) },
  ];
  const groups: PartialArg[][] = [];
  for (let start = 0; start < partialArgs.length; ) {
    const count = 1 + random.integer(3);
    groups.push(partialArgs.slice(start, start + count));
    start += count;
  }
  const closesWithLastGroup = groups.length > 0 && random.integer(2) === 0;
  groups.forEach((group, index) => {
    const lastGroup = index === groups.length - 1;
    parts.push({ functionCall: { partialArgs: group, ...(lastGroup && closesWithLastGroup ? {} : { willContinue: true }) } });
    if (!lastGroup && random.integer(6) === 0) parts.push({ functionCall: { willContinue: true } });
  });
  if (!closesWithLastGroup) parts.push({ functionCall: {} });
  return parts;
}

const NAMES = ['name', 'city', 'days', 'recipe', 'ingredients', 'amount', 'first name', "it's", 'a"b', 'back\\slash', 'ключ', '名前', 'emoji 😀', 'tab\there', '_x1', 'x-y'];
const TEXTS = ['', 'Boston', 'San Francisco, CA', 'Preheat oven to 375°F (190°C).', 'quote " and \' and \\', 'line\nbreak', '😀 emoji', '名前は', 'ends with space '];
const NUMBERS = [0, 1, -1, 2.5, -0.125, 100, 1e21, 5e-324, 9007199254740991];

/** Arguments of random shape: nested objects and arrays (never empty: no PartialArg can carry an empty one), every scalar type. */
export function randomArguments(random: Random, depth = 0): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const keys = 1 + random.integer(4);
  for (let index = 0; index < keys; index += 1) {
    const key = random.pick(NAMES);
    if (!Object.hasOwn(args, key)) Object.defineProperty(args, key, { value: randomValue(random, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return args;
}

function randomValue(random: Random, depth: number): unknown {
  const kind = random.integer(depth >= 4 ? 5 : 7);
  switch (kind) {
    case 0:
      return random.pick(TEXTS) + random.pick(TEXTS);
    case 1:
      return random.pick(NUMBERS);
    case 2:
      return random.integer(2) === 0;
    case 3:
      return null;
    case 4:
      return random.pick(TEXTS);
    case 5:
      return Array.from({ length: 1 + random.integer(4) }, () => randomValue(random, depth + 1));
    default:
      return randomArguments(random, depth);
  }
}
