/**
 * openCore: the one place the store, the turn engine, settings and keys are put together behind the Api.
 */
import { isAbsolute, join, resolve } from 'node:path';
import {
  ApiError,
  commandSchemas,
  isCommandName,
  type ApiEvent,
  type CommandName,
  type CommandOutput,
  type CommandResult,
  type McpServerView,
  type MemoryView,
  type ParsedCommandInput,
  type ToolView,
  type SettingsView,
} from '../../src-shared/api';
import { AVAILABLE_BRAINS, BRAIN_IDS, BRAINS, FALLBACK_BRAIN } from '../../src-shared/brains';
import type { Core, CoreOptions } from './core-types';
import { confirmKeyOrigin, connectionFor, forgetKeyOrigin } from './brain-connection';
import { TurnEngine, type TurnEngineDependencies } from './engine/run-turn';
import { streamProvider } from './providers';
import { newId, nowIso } from './store/clock';
import {
  DEFAULT_TITLE,
  deleteConversation,
  getConversation,
  insertConversation,
  listConversations,
  updateConversation,
} from './store/conversations';
import { listInvocationsByMessage, toInvocationView } from './store/invocations';
import { listMessagePage, markStreamingAsInterrupted, toMessageView } from './store/messages';
import { openDatabase, type AppDatabase } from './store/open';
import { holdOwnerLock, isStreamOwnerAlive } from './store/owner-lock';
import { ensurePrivateFolder, tightenDatabaseFiles } from './store/permissions';
import { readSetting, writeSetting } from './store/settings';
import { ConversationNotFoundError, exportConversation } from './transcripts/export';
import { McpServerStore } from './mcp-server-store';
import { createFileSecretStore } from './secrets/secret-store';
import { AppToolbox } from './toolbox';
import { bareToolName } from './replay/call-shaping';
import { deleteMemory, getMemory, insertMemory, listMemories, searchMemories, updateMemory } from './store/memories';
import { policyKey } from './tools/approvals';
import { importTranscript, TranscriptImportError } from './transcripts/import';

export const DATABASE_FILE = 'anybrain.db';

type Handlers = { [Name in CommandName]: (input: ParsedCommandInput<Name>) => CommandOutput<Name> | Promise<CommandOutput<Name>> };

export { connectionFor } from './brain-connection';

/** A message for errors that are not the user's doing, without leaking internals or keys. */
function describeUnexpected(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL') {
    return { code: 'disk-full', message: 'The disk is full, so Anybrain could not save. Free some space and try again; nothing already saved was lost.' };
  }
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') {
    return { code: 'storage-unavailable', message: 'Anybrain cannot write to its data folder. Check that the folder exists and is writable.' };
  }
  if (error instanceof ConversationNotFoundError) return { code: 'not-found', message: error.message };
  return { code: 'internal', message: `Something went wrong: ${error instanceof Error ? error.message : String(error)}` };
}

export interface OpenedCore extends Core {
  readonly db: AppDatabase;
  readonly engine: TurnEngine;
  /** Replies found still streaming at start-up (a crash mid-reply), now marked interrupted. */
  readonly recoveredInterrupted: number;
}

export function openCore(options: CoreOptions & { stream?: TurnEngineDependencies['stream'] }): OpenedCore {
  ensurePrivateFolder(options.dataDir);
  const databasePath = join(options.dataDir, DATABASE_FILE);
  const db = openDatabase(databasePath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  tightenDatabaseFiles(databasePath);
  const env = options.env ?? process.env;
  const keyStore = options.keyStore;
  const lockOptions = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  // Held before this process writes its first streaming row, released after its last (see store/owner-lock.ts).
  const ownerLock = holdOwnerLock(options.dataDir, undefined, lockOptions);
  const recoveredInterrupted = markStreamingAsInterrupted(db, nowIso(), (owner) => isStreamOwnerAlive(options.dataDir, owner, lockOptions));
  const listeners = new Set<(event: ApiEvent) => void>();
  const emit = (event: ApiEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a closed window, a dropped SSE client) must not stop a turn.
      }
    }
  };
  const secretStore = options.secretStore ?? createFileSecretStore(options.dataDir);
  const mcpServers = new McpServerStore(db, secretStore);
  try {
    mcpServers.moveLegacyValues();
  } catch (error) {
    // Opening must not fail over this: the values stay where they were, and the move is tried again on the next open.
    console.warn(`Anybrain: MCP environment values could not be moved out of the database yet: ${error instanceof Error ? error.message : String(error)}`);
  }
  const toolbox = new AppToolbox(db, options.dataDir, emit, mcpServers);
  const engine = new TurnEngine({
    db,
    emit,
    stream: options.stream ?? streamProvider,
    connectionFor: (brain) => connectionFor(db, brain, env, keyStore),
    toolbox,
    streamOwner: ownerLock.owner,
  });
  const mcpReady = toolbox.syncMcpServers();

  const settingsView = (): SettingsView => ({
    defaultBrain: readSetting(db, 'defaultBrain') ?? FALLBACK_BRAIN,
    theme: readSetting(db, 'theme') ?? 'system',
    canStoreKeys: keyStore?.canStore ?? false,
    dataDir: options.dataDir,
    brains: BRAIN_IDS.map((brain) => {
      const info = BRAINS[brain];
      const connection = connectionFor(db, brain, env, keyStore);
      return {
        brain,
        label: info.label,
        wire: info.wire,
        defaultModel: info.defaultModel,
        models: info.models,
        baseUrl: connection.baseUrl,
        baseUrlOverride: connection.baseUrlOverride,
        keySource: connection.keySource,
        connectionProblem: connection.problem ?? null,
        available: AVAILABLE_BRAINS.includes(brain),
      };
    }),
  });

  const requireConversation = (id: string) => {
    const conversation = getConversation(db, id);
    if (!conversation) throw new ApiError('not-found', 'That conversation no longer exists.');
    return conversation;
  };

  const memoryView = (row: { id: string; text: string; createdAt: string; updatedAt: string }): MemoryView => ({
    id: row.id,
    text: row.text,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });

  const toolViews = async (): Promise<ToolView[]> => {
    await mcpReady;
    return (await toolbox.list()).map((tool) => {
      const bare = bareToolName(tool.name);
      return { name: tool.name, tool: bare, server: tool.server, description: tool.description, policy: toolbox.policyFor(tool.server, bare) };
    });
  };

  /** Built from what is stored, never from the resolved configs: a view carries variable names, not values. */
  const mcpServerViews = (): McpServerView[] => {
    const statuses = new Map(toolbox.mcp.statuses().map((status) => [status.id, status]));
    return mcpServers.stored().map((server) => {
      const status = statuses.get(server.id);
      return {
        id: server.id,
        label: server.label,
        command: server.command,
        args: [...server.args],
        envNames: [...server.envNames],
        enabled: server.enabled,
        origin: server.origin,
        status: server.enabled ? (status?.status ?? 'stopped') : 'disabled',
        error: status?.lastError ?? null,
      };
    });
  };

  const afterMcpServersChanged = async (): Promise<McpServerView[]> => {
    await toolbox.syncMcpServers();
    return mcpServerViews();
  };

  const handlers: Handlers = {
    listConversations: ({ query }) => listConversations(db, query),
    createConversation: ({ title, brain, model }) => {
      const conversation = insertConversation(db, {
        id: newId(),
        title: title?.trim() || DEFAULT_TITLE,
        brain: brain ?? null,
        model: brain && model ? model : null,
        now: nowIso(),
      });
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    renameConversation: ({ id, title }) => {
      requireConversation(id);
      const conversation = updateConversation(db, id, { title, updatedAt: nowIso() })!;
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    deleteConversation: async ({ id }) => {
      if (engine.isRunning(id)) {
        engine.stop(id);
      }
      const deleted = deleteConversation(db, id);
      if (deleted) emit({ type: 'conversation-deleted', conversationId: id });
      return { deleted };
    },
    getConversation: ({ id }) => requireConversation(id),
    setConversationBrain: ({ id, brain, model, reasoningLevel }) => {
      const current = requireConversation(id);
      const conversation = updateConversation(db, id, {
        brain,
        // A model pick belongs to its brain: switching brain without naming a model goes back to that brain's default.
        model: model === undefined ? (current.brain === brain ? current.model : null) : model,
        reasoningLevel: reasoningLevel === undefined ? current.reasoningLevel : reasoningLevel,
      })!;
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    listMessages: ({ conversationId, beforeSeq, limit }) => {
      requireConversation(conversationId);
      const page = listMessagePage(db, conversationId, limit, beforeSeq);
      const byMessage = listInvocationsByMessage(db, page.rows.map((row) => row.id));
      return {
        messages: page.rows.map(toMessageView),
        invocations: page.rows.flatMap((row) => byMessage.get(row.id) ?? []).map(toInvocationView),
        hasOlder: page.hasOlder,
      };
    },
    send: ({ conversationId, text }) => engine.send(conversationId, text).result,
    retry: ({ conversationId }) => engine.retry(conversationId).result,
    stop: ({ conversationId }) => ({ stopped: engine.stop(conversationId) }),
    getSettings: () => settingsView(),
    setDefaultBrain: ({ brain }) => {
      writeSetting(db, 'defaultBrain', brain);
      return settingsView();
    },
    setTheme: ({ theme }) => {
      writeSetting(db, 'theme', theme);
      return settingsView();
    },
    setBaseUrl: ({ brain, baseUrl }) => {
      const baseUrls = { ...(readSetting(db, 'baseUrls') ?? {}) };
      if (baseUrl === null) delete baseUrls[brain];
      else baseUrls[brain] = baseUrl.replace(/\/+$/, '');
      writeSetting(db, 'baseUrls', baseUrls);
      return settingsView();
    },
    setKey: ({ brain, key }) => {
      if (!keyStore?.canStore) {
        const variable = BRAINS[brain].keyVariable;
        throw new ApiError(
          'keys-not-storable',
          `Keys cannot be stored here. Set ${variable ?? 'the key variable'} in the environment before starting Anybrain.`,
        );
      }
      keyStore.set(brain, key);
      // A key typed in Settings is meant for the base URL shown beside it.
      if (key === null) forgetKeyOrigin(db, brain);
      else confirmKeyOrigin(db, brain, connectionFor(db, brain, env, keyStore).baseUrl);
      return settingsView();
    },
    confirmKeyHost: ({ brain }) => {
      const connection = connectionFor(db, brain, env, keyStore);
      if (connection.problem?.code === 'insecure-base-url') throw new ApiError('insecure-base-url', connection.problem.message);
      confirmKeyOrigin(db, brain, connection.baseUrl);
      return settingsView();
    },
    exportConversation: ({ id, format }) => exportConversation(db, id, format),
    listMemories: ({ query, limit }) =>
      query && query.trim()
        ? searchMemories(db, query, limit).map((match) => {
            const row = getMemory(db, match.id);
            return row ? memoryView(row) : { id: match.id, text: match.text, createdAt: '', updatedAt: '' };
          })
        : listMemories(db, { limit }).map(memoryView),
    addMemory: ({ text }) => memoryView(insertMemory(db, { id: newId(), text, now: nowIso() })),
    updateMemory: ({ id, text }) => {
      const row = updateMemory(db, id, text, nowIso());
      if (!row) throw new ApiError('not-found', 'That memory no longer exists.');
      return memoryView(row);
    },
    deleteMemory: ({ id }) => ({ deleted: deleteMemory(db, id) }),
    listSkills: () => ({
      folder: toolbox.skillsFolder,
      skills: toolbox.skills().map((skill) => ({ name: skill.name, description: skill.description, file: skill.file })),
      problems: [...toolbox.skillProblems()],
    }),
    listTools: () => toolViews(),
    setToolPolicy: async ({ server, tool, policy }) => {
      writeSetting(db, 'toolPolicies', { ...(readSetting(db, 'toolPolicies') ?? {}), [policyKey(server, tool)]: policy });
      return toolViews();
    },
    listMcpServers: async () => {
      await mcpReady;
      return mcpServerViews();
    },
    saveMcpServer: async (input) => {
      mcpServers.save(input);
      return afterMcpServersChanged();
    },
    setMcpServerEnabled: async ({ id, enabled }) => {
      if (!mcpServers.setEnabled(id, enabled)) throw new ApiError('not-found', 'That MCP server no longer exists.');
      return afterMcpServersChanged();
    },
    removeMcpServer: async ({ id }) => {
      mcpServers.remove(id);
      return afterMcpServersChanged();
    },
    getGrantedFolders: () => ({ folders: toolbox.grantedFolders() }),
    setGrantedFolders: ({ folders }) => {
      const absolute = folders.filter((folder) => isAbsolute(folder));
      if (absolute.length !== folders.length) throw new ApiError('invalid-input', 'Granted folders must be absolute paths.');
      writeSetting(db, 'grantedFolders', [...new Set(absolute.map((folder) => resolve(folder)))]);
      return { folders: toolbox.grantedFolders() };
    },
    listApprovals: () => toolbox.approvals.list(),
    answerApproval: ({ approvalId, decision }) => ({ answered: toolbox.approvals.answer(approvalId, decision) }),
    importTranscript: ({ content }) => {
      let conversationId: string;
      try {
        conversationId = importTranscript(db, content);
      } catch (error) {
        if (error instanceof TranscriptImportError) throw new ApiError('invalid-transcript', error.message);
        throw error;
      }
      const conversation = getConversation(db, conversationId)!;
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    previewRequest: ({ conversationId, brain, model, message }) =>
      engine.previewRequest(conversationId, { ...(brain ? { brain } : {}), ...(model ? { model } : {}), ...(message === undefined ? {} : { message }) }),
  };

  let disposed = false;
  return {
    db,
    engine,
    recoveredInterrupted,
    dataDir: options.dataDir,
    async dispatch(name: string, rawInput: unknown): Promise<CommandResult<unknown>> {
      if (disposed) return { ok: false, error: { code: 'shutting-down', message: 'Anybrain is closing.' } };
      if (!isCommandName(name)) return { ok: false, error: { code: 'unknown-command', message: `Unknown command ${JSON.stringify(name)}.` } };
      const parsed = commandSchemas[name].safeParse(rawInput ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length ? issue.path.join('.') : 'input';
        return { ok: false, error: { code: 'invalid-input', message: `Invalid ${name} input at ${where}: ${issue?.message ?? 'invalid'}` } };
      }
      try {
        const handler = handlers[name] as (input: unknown) => unknown;
        return { ok: true, value: await handler(parsed.data) };
      } catch (error) {
        if (error instanceof ApiError) return { ok: false, error: { code: error.code, message: error.message } };
        return { ok: false, error: describeUnexpected(error) };
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await engine.dispose();
      await toolbox.dispose();
      listeners.clear();
      db.$client.close();
      ownerLock.release();
    },
  };
}
