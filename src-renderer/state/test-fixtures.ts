import { COMMAND_NAMES, type Api, type ConversationView, type InvocationView, type MessageView } from '../../src-shared/api';

export function conversationFixture(overrides: Partial<ConversationView> = {}): ConversationView {
  return {
    id: 'c1',
    title: 'First conversation',
    brain: null,
    model: null,
    reasoningLevel: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    archived: false,
    ...overrides,
  };
}

export function messageFixture(overrides: Partial<MessageView> = {}): MessageView {
  return {
    id: 'm1',
    conversationId: 'c1',
    seq: 1,
    turnId: 't1',
    role: 'user',
    kind: 'chat',
    text: 'Hello',
    status: 'complete',
    error: null,
    brain: null,
    modelRequested: null,
    modelResponded: null,
    modelMismatch: false,
    reasoningLevel: null,
    usage: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function replyFixture(overrides: Partial<MessageView> = {}): MessageView {
  return messageFixture({
    id: 'm2',
    seq: 2,
    role: 'assistant',
    text: 'Hi there',
    brain: 'kimi',
    modelRequested: 'kimi-k2.6',
    modelResponded: 'kimi-k2.6',
    ...overrides,
  });
}

export function invocationFixture(overrides: Partial<InvocationView> = {}): InvocationView {
  return {
    id: 'i1',
    turnId: 't1',
    messageId: 'm2',
    seq: 0,
    kind: 'tool',
    server: null,
    tool: 'current_time',
    input: {},
    output: '2026-01-01T10:00:00Z',
    status: 'ok',
    startedAt: '2026-01-01T10:00:00.000Z',
    endedAt: '2026-01-01T10:00:00.250Z',
    ...overrides,
  };
}

/** An Api whose commands reject unless a test supplies them. */
export function fakeApi(commands: Partial<Api>): Api {
  const api: Record<string, unknown> = {};
  for (const name of COMMAND_NAMES) {
    api[name] = commands[name] ?? (() => Promise.reject(new Error(`Unexpected command ${name}`)));
  }
  return api as Api;
}
