/**
 * Responses reasoning end to end: the turn engine with the real adapter against the fake brains over 127.0.0.1. The
 * reasoning items a tool loop streamed are stored verbatim with where each stood, and the next turn sends each back
 * right before the call or the words that followed it.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { listInvocationsByMessage } from '../store/invocations';
import { engineOverFakeBrains } from './testing';
import { listAllMessages, type StoredReasoning } from '../store/messages';
import { updateConversation } from '../store/conversations';

const fake = useFakeBrains();

type Item = Record<string, unknown>;

/** The input items of a recorded request, reduced to what says their order: reasoning by id, calls by call_id, words by role. */
function itemOrder(input: unknown): string[] {
  return (input as Item[]).map((item) => {
    if (item.type === 'reasoning') return `reasoning ${String(item.id)}`;
    if (item.type === 'function_call' || item.type === 'function_call_output') return `${item.type} ${String(item.call_id)}`;
    return String(item.role);
  });
}

describe('codex reasoning over a tool loop', () => {
  it('is stored with its places and replays on the next turn before the call and the words that followed it', async () => {
    const { db, engine } = engineOverFakeBrains(fake, 'codex', { checkpointIntervalMs: 20 });
    // A Codex model that always reasons, so a turn that picks no level still streams reasoning.
    updateConversation(db, 'c1', { model: 'gpt-5.5-codex' });

    const first = await engine.send('c1', 'What time is it? [think] [tool:current_time]').done;
    expect(first.status).toBe('complete');
    // Round one streamed a reasoning item and the call; round two, after the answer, another reasoning item and words.
    expect(fake.requests()).toHaveLength(2);
    const [call] = listInvocationsByMessage(db, [first.id]).get(first.id) ?? [];
    expect(call?.providerCallId).toMatch(/^call_/);
    const opaque = (listAllMessages(db, 'c1').at(-1)?.reasoning as StoredReasoning).opaque as { blocks: Item[]; places: unknown[] };
    expect(opaque.blocks.map((block) => [block.type, typeof block.encrypted_content])).toEqual([
      ['reasoning', 'string'],
      ['reasoning', 'string'],
    ]);
    expect(opaque.places).toEqual([{ before: 'call', providerCallId: call?.providerCallId }, { before: 'words' }]);

    await engine.send('c1', 'Thanks.').done;
    const next = fake.requests().at(-1)?.body as { input: Item[] };
    const [firstReasoning, secondReasoning] = opaque.blocks;
    const callId = (next.input.find((item) => item.type === 'function_call') as Item).call_id;
    expect(itemOrder(next.input)).toEqual([
      'user',
      `reasoning ${String(firstReasoning?.id)}`,
      `function_call ${String(callId)}`,
      `function_call_output ${String(callId)}`,
      `reasoning ${String(secondReasoning?.id)}`,
      'assistant',
      'user',
    ]);
    // Each item goes back exactly as the provider sent it.
    expect(next.input.filter((item) => item.type === 'reasoning')).toEqual(opaque.blocks);
    expect(fake.violations()).toEqual([]);
  });
});
