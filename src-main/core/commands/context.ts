/**
 * Context windows: how full the target brain's window is, compaction now, the rows a summary covers, and the window
 * settings (per-model windows, per-brain lines, the summarising brain).
 */
import { ApiError } from '../../../src-shared/api';
import { getMessage, listCoveredPage } from '../store/messages';
import { requireConversation } from './conversations';
import type { CommandDependencies, HandlerGroup } from './handlers';
import { toMessagePage } from './messages';
import { settingsView, type SettingsDependencies } from './settings';

export function contextCommands(dependencies: Pick<CommandDependencies, 'db' | 'engine'> & SettingsDependencies) {
  const { db, engine } = dependencies;
  const windows = engine.windows;
  return {
    getContextStatus: ({ conversationId, brain, model }) => {
      requireConversation(db, conversationId);
      return engine.contextStatus(conversationId, { ...(brain ? { brain } : {}), ...(model ? { model } : {}) });
    },
    compactConversation: ({ conversationId, brain }) => {
      requireConversation(db, conversationId);
      return engine.compact(conversationId, brain);
    },
    previewCompaction: ({ conversationId, brain }) => {
      requireConversation(db, conversationId);
      return engine.previewCompaction(conversationId, brain);
    },
    listCoveredMessages: ({ summaryId, beforeSeq, limit }) => {
      const summary = getMessage(db, summaryId);
      if (summary === null || summary.kind !== 'summary') throw new ApiError('not-found', 'That summary no longer exists.');
      return toMessagePage(db, listCoveredPage(db, summaryId, limit, beforeSeq));
    },
    setModelWindow: ({ brain, model, contextWindow, outputLimit }) => {
      windows.setOverride(brain, model, { contextWindow, outputLimit });
      return settingsView(dependencies);
    },
    setContextLines: ({ brain, warningPercent, emergencyPercent }) => {
      windows.setLines(brain, { warningPercent, emergencyPercent });
      return settingsView(dependencies);
    },
    setCompactionBrain: ({ brain }) => {
      windows.setSummariser(brain);
      return settingsView(dependencies);
    },
  } satisfies HandlerGroup;
}
