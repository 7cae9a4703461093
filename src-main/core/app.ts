/**
 * openCore: the one place the store, the turn engine, settings and keys are put together behind the Api. Wiring only:
 * each area's commands live in commands/<area>.ts, and dispatch in commands/dispatch.ts.
 */
import { join } from 'node:path';
import type { ApiEvent, CommandHandlers } from '../../src-shared/api';
import { connectionFor } from './brain-connection';
import { attachmentCommands } from './commands/attachments';
import { conversationCommands } from './commands/conversations';
import { usesKeys } from './commands/commands-using-keys';
import { dispatchCommand } from './commands/dispatch';
import { joinHandlers, type CommandDependencies } from './commands/handlers';
import { memoryCommands } from './commands/memories';
import { messageCommands } from './commands/messages';
import { outsideCommands } from './commands/outside';
import { contextCommands } from './commands/context';
import { ContextWindows } from './context/windows';
import { OllamaWindowCache } from './providers/ollama-show';
import { ModelReports } from './model-reports';
import type { BrainId } from '../../src-shared/brains';
import { searchCommands } from './commands/search';
import { usageCommands } from './commands/usage';
import { settingsCommands } from './commands/settings';
import { toolCommands } from './commands/tools';
import { transcriptCommands } from './commands/transcripts';
import { sweepAttachments } from './attachments/sweep';
import type { Core, CoreOptions } from './core-types';
import { createRequestBodyEncoder } from './engine/request-body-encoder';
import { TurnEngine, type TurnEngineDependencies } from './engine/turn-engine';
import { McpServerStore } from './mcp-server-store';
import { DiskConfirmation } from './outside/disk-confirmation';
import { NotAnswering } from './outside/not-answering';
import { startWatchdog } from './outside/watchdog';
import { streamProvider } from './providers';
import { createFileSecretStore } from './secrets/secret-store';
import { busyRetryPauses, stopWaitingForTheWriteLock } from './store/busy-retry';
import { nowIso } from './store/clock';
import { takeOverCheckpoints } from './store/checkpointer';
import { afterEachLogSync, requestLogSync, totalChanges } from './store/log-sync';
import { markStreamingAsInterrupted } from './store/messages';
import { closeDatabase, openDatabase, type AppDatabase } from './store/open';
import { holdOwnerLock, isStreamOwnerAlive } from './store/owner-lock';
import { ensurePrivateFolder, tightenDatabaseFiles } from './store/permissions';
import { searchIndexingProgress } from './store/search';
import { startSearchBackfill, type SearchBackfill } from './store/search-backfill';
import { AppToolbox } from './toolbox';
import { inProcessArchiveRunner } from './transcripts/export-archive';
import { ExportJobs } from './transcripts/export-jobs';
import { runExportWorker } from './transcripts/export-worker-runner';

export const DATABASE_FILE = 'anybrain.db';

export interface OpenedCore extends Core {
  /** For tests that look at rows directly; the hosts and the command line go through `dispatch`. */
  readonly db: AppDatabase;
  readonly engine: TurnEngine;
  /** Replies found still streaming at start-up (a crash mid-reply), now marked interrupted. */
  readonly recoveredInterrupted: number;
}

export function openCore(
  options: CoreOptions & {
    stream?: TurnEngineDependencies['stream'];
    /** Tests run from the sources, where no worker is built: `in-process` writes exports on this thread. */
    exportArchives?: 'worker' | 'in-process';
  },
): OpenedCore {
  ensurePrivateFolder(options.dataDir);
  const databasePath = join(options.dataDir, DATABASE_FILE);
  const db = openDatabase(databasePath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  tightenDatabaseFiles(databasePath);
  const checkpoints = takeOverCheckpoints(db, { databasePath, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  const env = options.env ?? process.env;
  const keyStore = options.keyStore;
  const lockOptions = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  // Held before this process writes its first streaming row, released after its last (see store/owner-lock.ts).
  const ownerLock = holdOwnerLock(options.dataDir, undefined, lockOptions);
  const searchBackfill = startPendingSearchBackfill(db, databasePath, options.nativeBinding);
  const recoveredInterrupted = markStreamingAsInterrupted(db, nowIso(), (owner) => isStreamOwnerAlive(options.dataDir, owner, lockOptions));
  const leftovers = sweepAttachments(db, options.dataDir, new Date(), lockOptions);
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
  const notAnswering = options.notAnswering ?? new NotAnswering();
  const disk = new DiskConfirmation(notAnswering);
  // A checkpoint syncs the database file on its worker: a disk that stops answering there is reported as for the log.
  afterEachLogSync(db, () => {
    const checkpoint = checkpoints.afterLogSync();
    if (checkpoint !== null) void disk.confirm(checkpoint, 'copying the log into the database');
  });
  const watchdog = options.watchdog === true ? startWatchdog() : null;
  const stopReportingNotAnswering = notAnswering.subscribe((list) => emit({ type: 'not-answering', list }));
  const secretStore = options.secretStore ?? createFileSecretStore(options.dataDir);
  const mcpServers = new McpServerStore(db, secretStore);
  try {
    mcpServers.moveLegacyValues();
  } catch (error) {
    // Opening must not fail over this: the values stay where they were, and the move is tried again on the next open.
    console.warn(`Anybrain: MCP environment values could not be moved out of the database yet: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Opened and swept: from here on the main thread never waits for another process's writer.
  stopWaitingForTheWriteLock(db);
  const toolbox = new AppToolbox(db, options.dataDir, emit, mcpServers, notAnswering);
  // Ollama runs each model at the num_ctx its Modelfile sets: asked once per model and base URL, kept five minutes.
  const ollamaWindows = new OllamaWindowCache();
  const connectionOf = (brain: BrainId) => connectionFor(db, brain, env, keyStore);
  const baseUrlOf = (brain: BrainId): string => connectionOf(brain).baseUrl;
  const modelReports = new ModelReports({ db, connectionOf });
  if (options.keepModelListsFresh === true) modelReports.keepFresh();
  const windows = new ContextWindows(db, {
    baseUrlOf,
    serverWindow: async (brain, model) => {
      const answer = await ollamaWindows.get(baseUrlOf(brain), model);
      return { numCtx: answer.contextWindow, trainedLength: answer.trainedContextLength };
    },
  });
  // Null where no worker can start: then every request body is built on this thread.
  const requestBodies = createRequestBodyEncoder();
  const engine = new TurnEngine({
    db,
    emit,
    windows,
    stream: options.stream ?? streamProvider,
    connectionFor: connectionOf,
    toolbox,
    streamOwner: ownerLock.owner,
    dataDir: options.dataDir,
    disk,
    notAnswering,
    ...(options.busyBudgetMs === undefined ? {} : { busyBudgetMs: options.busyBudgetMs }),
    // Another engine of this process holds this process's own lock: it runs, though the lock cannot tell.
    isLeaseOwnerAlive: (owner) => owner === ownerLock.owner || isStreamOwnerAlive(options.dataDir, owner, lockOptions),
    ...(requestBodies === null ? {} : { requestBodies }),
  });
  const mcpReady = toolbox.syncMcpServers();

  // The worker opens its own read-only connection to the same file, with the same native build as this thread.
  const exports = new ExportJobs({
    emit,
    runArchive:
      options.exportArchives === 'in-process'
        ? inProcessArchiveRunner(db, options.dataDir)
        : (request, signal, onProgress) =>
            runExportWorker({
              databasePath,
              dataDir: options.dataDir,
              request,
              signal,
              onProgress,
              ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
            }),
  });

  const dependencies: CommandDependencies = {
    db,
    dataDir: options.dataDir,
    emit,
    engine,
    toolbox,
    mcpServers,
    mcpReady,
    exports,
    env,
    keyStore,
    recoveredInterrupted,
    leftovers,
    notAnswering,
    modelReports,
  };
  const handlers: CommandHandlers = joinHandlers(
    conversationCommands(dependencies),
    messageCommands(dependencies),
    attachmentCommands(dependencies),
    settingsCommands(dependencies),
    contextCommands(dependencies),
    memoryCommands(dependencies),
    toolCommands(dependencies),
    transcriptCommands(dependencies),
    searchCommands(dependencies),
    usageCommands(dependencies),
    outsideCommands(dependencies),
  );

  let disposed = false;
  return {
    db,
    engine,
    recoveredInterrupted,
    dataDir: options.dataDir,
    async dispatch(name, rawInput) {
      if (disposed) return { ok: false, error: { code: 'shutting-down', message: 'Anybrain is closing.' } };
      watchdog?.noteCommand(name);
      if (usesKeys(name)) await keyStore?.refresh?.();
      const changesBefore = totalChanges(db);
      let result = await dispatchCommand(handlers, name, rawInput);
      // Refused because another process held the write lock, with nothing written: tried again on a timer, the loop free.
      const pauses = busyRetryPauses(options.busyBudgetMs);
      while (!result.ok && result.error.code === 'storage-busy' && !disposed && totalChanges(db) === changesBefore && (await pauses.next()).done !== true) {
        result = await dispatchCommand(handlers, name, rawInput);
      }
      // What a command changed is on the disk before its answer says so (commits leave the sync to the thread pool).
      if (!disposed && totalChanges(db) !== changesBefore) await disk.confirm(requestLogSync(db), `saving ${name}`);
      return result;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await modelReports.dispose();
      await engine.dispose();
      await requestBodies?.dispose();
      await exports.dispose();
      await toolbox.dispose();
      await searchBackfill?.stop();
      keyStore?.dispose?.();
      stopReportingNotAnswering();
      await watchdog?.dispose();
      listeners.clear();
      await checkpoints.dispose();
      closeDatabase(db);
      ownerLock.release();
    },
  };
}

/**
 * Messages written before the search index existed are indexed by a worker (store/search-backfill.ts); until it ends,
 * a search answers with how far it has come. A failed run is tried again on the next open.
 */
function startPendingSearchBackfill(db: AppDatabase, databasePath: string, nativeBinding: string | undefined): SearchBackfill | null {
  if (searchIndexingProgress(db) === null) return null;
  const backfill = startSearchBackfill({ databasePath, ...(nativeBinding ? { nativeBinding } : {}) });
  backfill.finished.catch((error: unknown) => {
    console.warn(`Anybrain: indexing older messages for search stopped: ${error instanceof Error ? error.message : String(error)}`);
  });
  return backfill;
}
