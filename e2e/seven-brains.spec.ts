/**
 * One conversation through all seven brains, each turn calling a tool. Every request the fake providers receive must
 * pass its wire's rules, and carry every earlier call in that wire's own shape with its answer.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { hasChrome } from '../src-main/core/transcripts/chrome';
import { BRAIN_IDS, BRAINS, type BrainId, type WireId } from '../src-shared/brains';
import type { RecordedRequest } from './fake-brains/server';
import { command, fakeBrainRequests, newConversation, openApp, OWN_CONNECTION, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { expectReplyStatus } from './support/waits';

const repoRoot = resolve(import.meta.dirname, '..');

interface NativeShape {
  readonly calls: number;
  readonly answers: number;
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Counts the calls and answers a request carries in its wire's own shape. */
function nativeShape(wire: WireId, body: Json): NativeShape {
  switch (wire) {
    case 'anthropic-messages': {
      const blocks = list(body.messages).flatMap((message) => list(message.content));
      return { calls: blocks.filter((block) => block.type === 'tool_use').length, answers: blocks.filter((block) => block.type === 'tool_result').length };
    }
    case 'chat-completions':
      return {
        calls: list(body.messages).flatMap((message) => list(message.tool_calls)).length,
        answers: list(body.messages).filter((message) => message.role === 'tool').length,
      };
    case 'openai-responses':
      return {
        calls: list(body.input).filter((item) => item.type === 'function_call').length,
        answers: list(body.input).filter((item) => item.type === 'function_call_output').length,
      };
    case 'gemini-generate-content': {
      const parts = list(body.contents).flatMap((content) => list(content.parts));
      return { calls: parts.filter((part) => 'functionCall' in part).length, answers: parts.filter((part) => 'functionResponse' in part).length };
    }
    case 'ollama-chat':
      return {
        calls: list(body.messages).flatMap((message) => list(message.tool_calls)).length,
        answers: list(body.messages).filter((message) => message.role === 'tool').length,
      };
    default: {
      const unreachable: never = wire;
      throw new Error(`Unknown wire ${String(unreachable)}`);
    }
  }
}

test('one conversation through all seven brains, each calling a tool, every request valid and carrying every earlier call', async ({ page, request }) => {
  test.setTimeout(120_000);
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });
  await openApp(page);
  const conversationId = await newConversation(page);

  for (const [index, brain] of BRAIN_IDS.entries()) {
    await pickBrain(page, brain);
    await sendMessage(page, `[tool:current_time {"zone":"Asia/Seoul"}] Turn ${index + 1}: what time is it, ${BRAINS[brain].label}?`);
    // The list renders the rows in view: this turn's reply is the newest one rendered.
    const reply = page.locator(`[data-testid="message"][data-role="assistant"][data-brain="${brain}"]`).last();
    await expectReplyStatus(page, reply, 'complete');
    await expect(reply.getByTestId('message-text')).toContainText(`Turn ${index + 1}: what time is it, ${BRAINS[brain].label}? (tools answered: 20`);
  }

  const violations = (await (await request.get(`${readE2eEnvironment().fakeBrainsUrl}/_fake/violations`, { headers: OWN_CONNECTION })).json()) as unknown[];
  expect(violations).toEqual([]);

  // Ollama is also asked for its model's window (`/api/show`) before a turn: only the turns' requests are counted here.
  const requests = (await fakeBrainRequests(request)).filter((recorded) => !recorded.path.endsWith('/api/show'));
  // Each turn sends two requests: the first asks, the brain calls the tool; the second carries the answer.
  expect(requests.map((recorded) => recorded.brain)).toEqual(BRAIN_IDS.flatMap((brain) => [brain, brain]));
  BRAIN_IDS.forEach((brain: BrainId, index) => {
    const first = requests[index * 2] as RecordedRequest;
    const second = requests[index * 2 + 1] as RecordedRequest;
    const wire = BRAINS[brain].wire;
    expect(nativeShape(wire, first.body as Json), `${brain}: earlier calls in the first request`).toEqual({ calls: index, answers: index });
    expect(nativeShape(wire, second.body as Json), `${brain}: this turn's call in the second request`).toEqual({ calls: index + 1, answers: index + 1 });
  });

  const stored = await command(request, 'listMessages', { conversationId });
  expect(stored.invocations.map((invocation) => [invocation.tool, invocation.status])).toEqual(BRAIN_IDS.map(() => ['current_time', 'ok']));
  expect(stored.messages.filter((message) => message.role === 'assistant').map((message) => message.brain)).toEqual([...BRAIN_IDS]);

  // The chrome gate: after real turns with tools on every wire, no stored reply carries renderer chrome, by SQL and
  // by `anybrain doctor`.
  const database = new Database(join(readE2eEnvironment().dataDir, 'anybrain.db'), { readonly: true, fileMustExist: true });
  try {
    const replies = database.prepare("SELECT text FROM messages WHERE role = 'assistant'").pluck().all() as string[];
    expect(replies.length).toBeGreaterThanOrEqual(BRAIN_IDS.length);
    expect(replies.filter(hasChrome)).toEqual([]);
  } finally {
    database.close();
  }
  const doctor = spawnSync(process.execPath, [join(repoRoot, 'bin', 'anybrain.js'), 'doctor', '--data', readE2eEnvironment().dataDir], { encoding: 'utf8' });
  expect(doctor.stdout).toContain('chrome-bearing replies: 0\n');
});

