/**
 * Transcripts and the health of stored texts: export, import, and what `anybrain doctor` and `repair` report and fix.
 */
import { ApiError } from '../../../src-shared/api';
import { conversationsWithStaleLivePath, remarkLivePath } from '../store/branches';
import { getConversation } from '../store/conversations';
import { checkIntegrity } from '../store/integrity';
import { countMessagesByStatus } from '../store/messages';
import { readCounters } from '../store/settings';
import { exportConversation } from '../transcripts/export';
import { chatGptExportToTranscripts } from '../transcripts/foreign/chatgpt';
import { claudeExportToTranscripts } from '../transcripts/foreign/claude';
import { importTranscript, TranscriptImportError } from '../transcripts/import';
import { importFile, type ForeignConverters } from '../transcripts/import-file';
import { applyRepair, measureTextHealth, planRepair, QUOTE_ESCAPE_COUNTER, undoLastRepair } from '../transcripts/repair';
import type { CommandDependencies, HandlerGroup } from './handlers';

/** The other apps' exports `importConversations` reads, one converter each. */
export const FOREIGN_CONVERTERS: ForeignConverters = { chatgpt: chatGptExportToTranscripts, claude: claudeExportToTranscripts };

export function transcriptCommands({ db, dataDir, emit, exports, recoveredInterrupted, leftovers }: Pick<CommandDependencies, 'db' | 'dataDir' | 'emit' | 'exports' | 'recoveredInterrupted' | 'leftovers'>) {
  return {
    exportConversation: ({ id, format, ...options }) => exportConversation(db, id, format, options, dataDir),
    exportAllConversations: ({ exportId, format, ...options }) => exports.exportAll(exportId, { format, ...options }),
    cancelExport: ({ exportId }) => ({ cancelled: exports.cancel(exportId) }),
    readExport: ({ exportId, offset }) => exports.read(exportId, offset),
    importTranscript: ({ content }) => {
      let conversationId: string;
      try {
        conversationId = importTranscript(db, content, dataDir);
      } catch (error) {
        if (error instanceof TranscriptImportError) throw new ApiError('invalid-transcript', error.message);
        throw error;
      }
      const conversation = getConversation(db, conversationId)!;
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    importConversations: async ({ name, content, contentBase64 }) => {
      const file = contentBase64 === undefined ? (content ?? '') : new Uint8Array(Buffer.from(contentBase64, 'base64'));
      let outcome;
      try {
        outcome = await importFile(db, file, FOREIGN_CONVERTERS, (done, total) => emit({ type: 'import-progress', name, done, total }), dataDir);
      } catch (error) {
        if (error instanceof TranscriptImportError) throw new ApiError('invalid-transcript', error.message);
        throw error;
      }
      for (const conversationId of outcome.conversationIds) emit({ type: 'conversation-updated', conversation: getConversation(db, conversationId)! });
      return {
        source: outcome.source,
        conversations: outcome.conversationIds.length,
        messages: outcome.messages,
        skipped: outcome.skipped,
        conversationIds: outcome.conversationIds,
      };
    },
    getDataHealth: () => {
      const { integrity, foreignKeyProblems } = checkIntegrity(db);
      const statuses = countMessagesByStatus(db);
      const health = measureTextHealth(db);
      return {
        integrity,
        foreignKeyProblems,
        interruptedReplies: statuses.interrupted,
        streamingReplies: statuses.streaming,
        failedReplies: statuses.failed,
        stoppedReplies: statuses.stopped,
        interruptedAtThisStart: recoveredInterrupted,
        leftoversRemovedAtThisStart: leftovers.removed,
        leftoversKept: leftovers.kept,
        chromeRows: health.chromeRows,
        quoteEscapeRows: health.quoteEscapeRows,
        quoteEscapeNormalizations: readCounters(db)[QUOTE_ESCAPE_COUNTER] ?? 0,
        staleLivePaths: conversationsWithStaleLivePath(db).length,
      };
    },
    repairTexts: ({ kind, apply }) => {
      const changes = planRepair(db, kind);
      const shown = changes.map(({ conversationId, messageId, before, after }) => ({ conversationId, messageId, before, after }));
      if (!apply) return { changes: shown, changed: null };
      return { changes: shown, changed: applyRepair(db, kind, changes).changed };
    },
    undoRepair: () => undoLastRepair(db),
    repairLivePaths: ({ apply }) => {
      const conversationIds = conversationsWithStaleLivePath(db);
      if (!apply) return { conversationIds, repaired: null };
      for (const conversationId of conversationIds) remarkLivePath(db, conversationId);
      return { conversationIds, repaired: conversationIds.length };
    },
  } satisfies HandlerGroup;
}
