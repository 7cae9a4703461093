import {
  COMMAND_NAMES,
  type Api,
  type ApprovalView,
  type BrainSettingsView,
  type ContextSettingsView,
  type ContextStatusView,
  type ConversationView,
  type InvocationView,
  type McpServerView,
  type MemoryView,
  type MessageView,
  type ModelWindowView,
  type SettingsView,
  type ToolView,
} from '../../src-shared/api';
import { BRAIN_IDS } from '../../src-shared/brains';
import { DEFAULT_CONTEXT_LINES } from '../../src-shared/context-windows';

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
    compactedInto: null,
    coversThroughId: null,
    parentId: null,
    siblings: null,
    reasoning: null,
    attachments: [],
    spend: null,
    coveredMessages: 0,
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

export function approvalFixture(overrides: Partial<ApprovalView> = {}): ApprovalView {
  return {
    approvalId: 'ap1',
    conversationId: 'c1',
    turnId: 't1',
    server: 'everything',
    tool: 'echo',
    input: { message: 'approve me' },
    ...overrides,
  };
}

export function memoryFixture(overrides: Partial<MemoryView> = {}): MemoryView {
  return {
    id: 'mem1',
    text: 'Prefers metric units.',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function toolFixture(overrides: Partial<ToolView> = {}): ToolView {
  return { name: 'read_file', tool: 'read_file', server: null, description: 'Reads a file.', policy: 'allow', ...overrides };
}

export function mcpServerFixture(overrides: Partial<McpServerView> = {}): McpServerView {
  return {
    id: 'everything',
    label: 'Everything',
    command: '/usr/bin/node',
    args: ['/srv/everything/index.js', 'stdio'],
    envNames: [],
    enabled: true,
    origin: 'user',
    status: 'running',
    error: null,
    ...overrides,
  };
}

/** A summary row: 'system', kind 'summary', newer (by seq) than the rows it covers. */
export function summaryFixture(overrides: Partial<MessageView> = {}): MessageView {
  return messageFixture({
    id: 's1',
    seq: 900,
    turnId: 'compaction-1',
    role: 'system',
    kind: 'summary',
    text: 'The user and Kimi planned a **garden**.',
    coversThroughId: 'm800',
    coveredMessages: 812,
    ...overrides,
  });
}

/** Kimi's window at 61 %: 160,000 of 262,144 estimated tokens. */
export function contextStatusFixture(overrides: Partial<ContextStatusView> = {}): ContextStatusView {
  return {
    conversationId: 'c1',
    brain: 'kimi',
    model: 'kimi-k2.6',
    tokens: 160_000,
    measuredBy: 'estimate',
    contextWindow: 262_144,
    outputLimit: 32_768,
    windowSource: 'model',
    windowReportedAt: null,
    windowNote: null,
    percent: 61,
    level: 'warning',
    lines: DEFAULT_CONTEXT_LINES,
    full: false,
    compacting: false,
    spent: null,
    outsideWindow: 0,
    summary: null,
    description: "61 % of Kimi's window",
    ...overrides,
  };
}

export function modelWindowFixture(overrides: Partial<ModelWindowView> = {}): ModelWindowView {
  return {
    brain: 'kimi',
    model: 'kimi-k2.6',
    contextWindow: 262_144,
    outputLimit: 32_768,
    source: 'model',
    reportedAt: null,
    note: null,
    override: null,
    ...overrides,
  };
}

export function contextSettingsFixture(overrides: Partial<ContextSettingsView> = {}): ContextSettingsView {
  return {
    compactionBrain: null,
    lines: Object.fromEntries(BRAIN_IDS.map((brain) => [brain, DEFAULT_CONTEXT_LINES])) as ContextSettingsView['lines'],
    modelWindows: [modelWindowFixture()],
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

export function brainSettingsFixture(overrides: Partial<BrainSettingsView> = {}): BrainSettingsView {
  return {
    brain: 'kimi',
    label: 'Kimi',
    wire: 'chat-completions',
    defaultModel: 'kimi-k2.6',
    models: ['kimi-k2.6'],
    modelsListedAt: null,
    reportedModels: [],
    baseUrl: 'https://api.moonshot.ai/v1',
    baseUrlOverride: null,
    keySource: 'none',
    connectionProblem: null,
    available: true,
    ...overrides,
  };
}

export function settingsViewFixture(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    defaultBrain: 'kimi',
    theme: 'system',
    canStoreKeys: true,
    keyStorage: { place: 'the system keychain', answering: true, refusal: null, refusalDetail: null },
    dataDir: '/home/someone/.local/share/anybrain',
    context: contextSettingsFixture(),
    brains: [
      brainSettingsFixture({}),
      brainSettingsFixture({
        brain: 'ollama',
        label: 'Ollama',
        wire: 'ollama-chat',
        baseUrl: 'http://127.0.0.1:11434',
        keySource: 'not-needed',
        available: false,
      }),
    ],
    ...overrides,
  };
}
