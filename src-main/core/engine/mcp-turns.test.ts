/**
 * Turns whose MCP tools misbehave, with a real MCP server process: a crash mid-call and a hung call each end as an
 * error invocation while the turn still completes, and nothing is left running afterwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../src-shared/api';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { insertConversation } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { openTestDatabase } from '../store/test-database';
import { McpManager } from '../tools/mcp';
import { fakeServer, isAlive } from '../tools/mcp/testing/servers';
import { TurnEngine } from './turn-engine';
import { clockOnlyToolbox } from './turn-toolbox';

const managers: McpManager[] = [];
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.dispose();
});

/** A brain that calls `tool` once, then answers in words once the result is back. */
function callingBrain(tool: string, input: Record<string, unknown>) {
  const calls: ProviderCall[] = [];
  const stream = async function* (call: ProviderCall): AsyncIterable<StreamPart> {
    calls.push(call);
    if (calls.length === 1) {
      yield { type: 'tool-call', providerCallId: 'call-1', name: tool, input };
      yield { type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' };
    } else {
      yield { type: 'text-delta', text: 'Carrying on without it.' };
      yield { type: 'finish', reason: 'stop', rawReason: 'end_turn' };
    }
  };
  return { calls, stream };
}

async function runTurnWith(tool: string, input: Record<string, unknown>, toolTimeoutMs: number) {
  const manager = new McpManager({ hostOptions: { toolTimeoutMs, restartBackoffMs: 50 } });
  managers.push(manager);
  await manager.setConfigs([fakeServer()]);
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'MCP', brain: 'claude', model: null, now: 't' });
  const brain = callingBrain(tool, input);
  const events: ApiEvent[] = [];
  const engine = new TurnEngine({
    db,
    emit: (event) => events.push(event),
    stream: brain.stream,
    connectionFor: () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }),
    toolbox: { ...clockOnlyToolbox(), list: (signal) => manager.toolDefinitions(signal) },
  });
  const message = await engine.send('c1', 'use the tool').done;
  const invocations = listInvocationsByMessage(db, [message.id]).get(message.id) ?? [];
  return { manager, message, invocations, brain };
}

describe('turns with a misbehaving MCP server', () => {
  it('a server crashing mid-call gives an error invocation, and the turn completes', async () => {
    const { manager, message, invocations, brain } = await runTurnWith('fake__crash', { ms: 50 }, 10_000);
    expect(message).toMatchObject({ status: 'complete', text: 'Carrying on without it.' });
    expect(invocations.map((row) => [row.server, row.tool, row.status])).toEqual([['fake', 'crash', 'error']]);
    expect(invocations[0]?.output).toMatch(/stopped during the call/);
    expect(JSON.stringify(brain.calls[1]?.body)).toContain('"is_error":true');
    const pid = manager.host('fake')?.processId ?? null;
    await manager.dispose();
    if (pid !== null) expect(isAlive(pid)).toBe(false);
  }, 30_000);

  it('a hung call times out as an error invocation, the turn completes, and dispose leaves no process', async () => {
    const { manager, message, invocations } = await runTurnWith('fake__sleep', { ms: 60_000 }, 500);
    expect(message.status).toBe('complete');
    expect(invocations.map((row) => [row.tool, row.status])).toEqual([['sleep', 'error']]);
    expect(invocations[0]?.output).toMatch(/^The MCP server "Fake" did not answer sleep within .*; the call was cancelled\.$/);
    const pid = manager.host('fake')?.processId;
    expect(pid).toBeTypeOf('number');
    await manager.dispose();
    expect(isAlive(pid!)).toBe(false);
  }, 30_000);
});
