import { describe, expect, it } from 'vitest';
import { declaredName, isDeclared, partitionCalls } from './call-shaping';
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
