/**
 * Tool calls whose arguments a model nests or grows past what Anybrain reads: answered with an error the model can
 * read, kept as a flat stand-in holding the start of their text, and never walked recursively (a call nested 2,000
 * levels ended the host with "Maximum call stack size exceeded" when the next request was built).
 */
import { describe, expect, it } from 'vitest';
import { listInvocationsByMessage } from '../store/invocations';
import { argumentsProblem, jsonPrefix, MAX_CALL_ARGUMENTS_CHARS } from './call-arguments';
import { scriptedEngine } from './testing';

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { zone: 'Asia/Seoul' };
  for (let level = 1; level < levels; level += 1) value = { a: value };
  return value;
}

const TOO_DEEP = 'Anybrain did not run this call: its arguments nest more than 100 levels deep. Call the tool again with flatter arguments.';

describe('a tool call whose arguments nest too deep', () => {
  it('is answered with an error the model can read, kept as the start of its text, and the turn goes on', async () => {
    const { db, scripted, engine } = scriptedEngine();
    const started = engine.send('c1', 'What time is it?');
    scripted.push(
      { type: 'tool-call', providerCallId: 'functions.current_time:0', name: 'current_time', input: nested(2_000) },
      'end',
      { type: 'text-delta', text: 'Sorry, let me try again.' },
      'end',
    );
    const message = await started.done;
    expect([message.status, message.text]).toEqual(['complete', 'Sorry, let me try again.']);
    const kept = `${'{"a":'.repeat(100)}`;
    const [invocation] = listInvocationsByMessage(db, [message.id]).get(message.id) ?? [];
    expect([invocation?.status, invocation?.output, invocation?.input]).toEqual(['error', TOO_DEEP, { arguments_not_read: `${kept}… [cut]` }]);
    expect((scripted.calls[1]?.body.messages as unknown[]).slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        reasoning_content: '(These calls were made earlier in the conversation; no reasoning was recorded for them.)',
        tool_calls: [
          { id: 'functions.current_time:0', type: 'function', function: { name: 'current_time', arguments: JSON.stringify({ arguments_not_read: `${kept}… [cut]` }) } },
        ],
      },
      { role: 'tool', tool_call_id: 'functions.current_time:0', content: `Error: ${TOO_DEEP}` },
    ]);

    // The next turn replays it too.
    const next = engine.send('c1', 'Thanks');
    scripted.push({ type: 'text-delta', text: 'Welcome' }, 'end');
    expect((await next.done).status).toBe('complete');
  });

  it('runs a call nested exactly to the limit', async () => {
    expect(argumentsProblem(nested(100))).toBeNull();
    expect(argumentsProblem(nested(101))).toBe('too-deep');
    expect(argumentsProblem(nested(200_000))).toBe('too-deep');
  });
});

describe('a tool call whose arguments are too long', () => {
  it('is answered with an error naming the limit, and nothing past the limit is walked', async () => {
    const { db, scripted, engine } = scriptedEngine();
    const started = engine.send('c1', 'Write it all');
    const input = { path: 'a.md', content: 'x'.repeat(MAX_CALL_ARGUMENTS_CHARS) };
    scripted.push({ type: 'tool-call', providerCallId: 'functions.current_time:0', name: 'current_time', input }, 'end', { type: 'text-delta', text: 'Too much.' }, 'end');
    const message = await started.done;
    const [invocation] = listInvocationsByMessage(db, [message.id]).get(message.id) ?? [];
    expect([invocation?.status, invocation?.output]).toEqual([
      'error',
      'Anybrain did not run this call: its arguments are longer than 1,000,000 characters. Call the tool again with less in one call.',
    ]);
    expect(invocation?.input).toEqual({ arguments_not_read: `{"path":"a.md","content":"${'x'.repeat(474)}… [cut]` });
  });
});

describe('jsonPrefix', () => {
  it('writes what JSON.stringify writes, up to its limit', () => {
    const value = { b: [1, 'two', null, { c: true, d: [] }], a: {}, e: 'q"uote' };
    expect(jsonPrefix(value, 10_000)).toBe(JSON.stringify(value));
    expect(jsonPrefix(value, 12)).toBe(JSON.stringify(value).slice(0, 12));
    expect(jsonPrefix([], 5)).toBe('[]');
  });
});
