import { describe, expect, it } from 'vitest';
import { cutInput, declaredName, isDeclared, MAX_CALL_CHARS, partitionCalls } from './call-shaping';
import { seededRandom } from '../../cli/testing';
import { WIRE_IDS } from '../../../src-shared/brains';
import type { ReplayCall, ReplayTurn, ToolDeclaration } from './types';
import { buildWireRequest } from './wires';
import { fixtureRequest } from './wires/replay-fixture';

const schema = { type: 'object' };
const builtInReadFile: ToolDeclaration = { name: 'read_file', description: 'Built-in', inputSchema: schema };
const serverReadFile: ToolDeclaration = { name: 'files__read_file', description: 'Files: read', inputSchema: schema };

function call(server: string | null | undefined, name: string): ReplayCall {
  return { callId: 'call_01A_0', name, input: { path: 'a.txt' }, answer: 'text', isError: false, ...(server === undefined ? {} : { server }) };
}

describe('replayed call names when a server tool shares its bare name with a built-in', () => {
  it('replays a call that ran on the server as the server tool, never as the built-in', () => {
    const onServer = call('files', 'read_file');
    expect(declaredName(onServer, [builtInReadFile, serverReadFile])).toBe('files__read_file');
    expect(declaredName(onServer, [serverReadFile, builtInReadFile])).toBe('files__read_file');
  });

  it('replays a call to the built-in as the built-in, never as the server tool', () => {
    const builtIn = call(null, 'read_file');
    expect(declaredName(builtIn, [serverReadFile, builtInReadFile])).toBe('read_file');
  });

  it('replays a server call as a text record when only the built-in of that name is offered', () => {
    const onServer = call('files', 'read_file');
    expect(isDeclared(onServer, [builtInReadFile])).toBe(false);
    const { native, records } = partitionCalls({ messageId: '01A', role: 'assistant', kind: 'chat', text: '', calls: [onServer] }, [builtInReadFile], 'history');
    expect(native).toEqual([]);
    expect(records).toHaveLength(1);
  });

  it('replays a built-in call as a text record when only the server tool of that name is offered', () => {
    expect(isDeclared(call(null, 'read_file'), [serverReadFile])).toBe(false);
  });

  it('takes the server from a namespaced name when the call does not record one', () => {
    expect(declaredName(call(undefined, 'files__read_file'), [builtInReadFile, serverReadFile])).toBe('files__read_file');
    expect(declaredName(call(undefined, 'read_file'), [serverReadFile, builtInReadFile])).toBe('read_file');
  });
});

describe('every wire replays a server call under the server tool when the built-in of that name is offered too', () => {
  const turns: ReplayTurn[] = [
    { messageId: 'u1', role: 'user', kind: 'chat', text: 'Read a.txt.', calls: [] },
    { messageId: '01FILES', role: 'assistant', kind: 'chat', text: 'Done.', calls: [call('files', 'read_file')], brain: 'claude', model: 'claude-sonnet-4-6' },
    { messageId: 'u2', role: 'user', kind: 'chat', text: 'Thanks.', calls: [] },
  ];
  it.each(WIRE_IDS)('%s', (wire) => {
    const { body } = buildWireRequest(wire, fixtureRequest({ turns, tools: [builtInReadFile, serverReadFile] }));
    const messages = JSON.stringify((body as { messages?: unknown; input?: unknown; contents?: unknown }).messages ?? body.input ?? body.contents);
    expect(messages).toContain('"files__read_file"');
    expect(messages).not.toContain('"read_file"');
  });
});

describe('cutInput', () => {
  it('keeps the first items of a long array whole, with a mark of how many were cut', () => {
    const { input, cut } = cutInput({ values: Array.from({ length: 300 }, (_, index) => index * 7) });
    expect(cut).toBe(true);
    const kept = Array.from({ length: 121 }, (_, index) => index * 7);
    expect(JSON.stringify(input)).toBe(JSON.stringify({ values: [...kept, '… [179 items cut]'] }));
    expect(JSON.stringify(input)).toHaveLength(499);
  });

  it('shortens a long string and keeps the short ones whole', () => {
    const { input } = cutInput({ path: 'a'.repeat(2000), note: '가'.repeat(10) });
    expect(input).toEqual({ path: `${'a'.repeat(468)}…`, note: '가'.repeat(10) });
    expect(JSON.stringify(input)).toHaveLength(MAX_CALL_CHARS);
  });

  it('keeps the first item of an array of large objects, cut to fit, with the keys of every object kept', () => {
    const edits = Array.from({ length: 10 }, (_, index) => ({ old: 'o'.repeat(300 + index), new: 'n'.repeat(300 + index) }));
    expect(cutInput({ edits }).input).toEqual({ edits: [{ old: `${'o'.repeat(224)}…`, new: `${'n'.repeat(224)}…` }, '… [9 items cut]'] });
  });

  it('counts JSON escapes and never splits an emoji', () => {
    const { input } = cutInput({ quoted: '"\\\n'.repeat(300), emoji: '😀'.repeat(300) });
    expect(JSON.stringify(input).length).toBeLessThanOrEqual(MAX_CALL_CHARS);
    const { quoted, emoji } = input as { quoted: string; emoji: string };
    expect(quoted.endsWith('…') && '"\\\n'.repeat(300).startsWith(quoted.slice(0, -1))).toBe(true);
    expect(emoji).toMatch(/^(😀)+…$/u);
  });

  it('replays an input whose keys alone exceed the limit as the start of its JSON text', () => {
    const input = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`key${index}`, index]));
    const cutJson = JSON.stringify(cutInput(input).input);
    expect(cutJson).toHaveLength(MAX_CALL_CHARS);
    const { '[input cut]': start, ...rest } = JSON.parse(cutJson) as Record<string, string>;
    expect(rest).toEqual({});
    expect(start).toMatch(/^\{"key0":0,"key1":1,.*"key3…$/);
    expect(JSON.stringify(input).startsWith(start!.slice(0, -1))).toBe(true);
  });

  it('returns a short input unchanged', () => {
    const input = { path: 'a.txt', lines: [1, 2, 3] };
    expect(cutInput(input)).toEqual({ input, cut: false });
  });

  /**
   * Random JSON objects: deep nesting, many keys, numbers, long arrays, escapes, emoji and lone surrogates, with at most
   * a few hundred values each.
   */
  function randomInputs(seed: number) {
    const random = seededRandom(seed);
    const below = (count: number) => Math.floor(random() * count);
    const pieces = ['a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0001', '\u2028', '😀', '가', '\ud800', 'é', '}', '…'];
    const numbers = [0, -1, 3.25, 1e21, -7.5e-7, 123456789, Number.MAX_SAFE_INTEGER];
    let values = 0;
    const text = () => Array.from({ length: below(random() < 0.05 ? 900 : 20) }, () => pieces[below(pieces.length)]).join('');
    const value = (depth: number): unknown => {
      values += 1;
      const kind = below(depth > 40 || values > 400 ? 3 : 6);
      if (kind === 0) return text();
      if (kind === 1) return random() < 0.5 ? numbers[below(numbers.length)] : [true, false, null][below(3)];
      if (kind === 2) return below(100_000);
      if (kind === 3) return Array.from({ length: below(random() < 0.3 ? 400 : 6) }, () => value(depth + 1));
      return object(depth + 1);
    };
    const object = (depth: number): Record<string, unknown> => {
      const count = below(random() < 0.1 ? 150 : 6);
      return Object.fromEntries(Array.from({ length: count }, (_, index) => [`${index % 3 === 0 ? 'k"\\😀' : 'key'}${index}`, value(depth)]));
    };
    return {
      next: (): Record<string, unknown> => {
        values = 0;
        // Every fourth input nests one value deep down a chain of single keys.
        return below(4) === 0 ? Array.from({ length: below(120) }).reduce<Record<string, unknown>>((inner) => ({ d: inner }), object(0)) : object(0);
      },
    };
  }

  /** The input with every string emptied and every array empty: nothing cut can be smaller than its keys. */
  function keysOnly(value: unknown): unknown {
    if (typeof value === 'string') return '';
    if (Array.isArray(value)) return [];
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, keysOnly(item)]));
    return value;
  }

  it('gives at most 500 characters of JSON for any input, an object with the same keys unless its keys alone are too long', () => {
    const inputs = randomInputs(20261201);
    let cutCount = 0;
    for (let run = 0; run < 300; run += 1) {
      const input = inputs.next();
      const { input: result, cut } = cutInput(input);
      const json = JSON.stringify(result);
      expect(json.length, JSON.stringify(input)).toBeLessThanOrEqual(MAX_CALL_CHARS);
      expect(JSON.parse(json)).toEqual(result);
      expect(Array.isArray(result)).toBe(false);
      expect(cut).toBe(JSON.stringify(input).length > MAX_CALL_CHARS);
      if (!cut) {
        expect(result).toBe(input);
        continue;
      }
      cutCount += 1;
      if (JSON.stringify(keysOnly(input)).length > MAX_CALL_CHARS) expect(Object.keys(result)).toEqual(['[input cut]']);
      else if (!('[input cut]' in result)) expect(Object.keys(result)).toEqual(Object.keys(input));
    }
    expect(cutCount).toBeGreaterThan(60);
  });
});
