/**
 * Which commands read API keys: before each of them the dispatcher refreshes the key store (a key another process
 * stored meanwhile), and no other command waits on the keychain. Every command is named, so a new one does not compile
 * until it is placed.
 */
import type { CommandName } from '../../../src-shared/api';

const USES_KEYS: Readonly<Record<CommandName, boolean>> = {
  // A turn, and a compaction, call a brain with its key.
  send: true,
  retry: true,
  editMessage: true,
  regenerate: true,
  answerWith: true,
  compactConversation: true,
  previewCompaction: false,
  testBrain: true,
  // Each answers the settings view, which says where every brain's key comes from.
  getSettings: true,
  setDefaultBrain: true,
  setTheme: true,
  setBaseUrl: true,
  confirmKeyHost: true,
  setKey: true,
  setModelWindow: true,
  setContextLines: true,
  setCompactionBrain: true,
  listConversations: false,
  createConversation: false,
  renameConversation: false,
  deleteConversation: false,
  getConversation: false,
  setConversationBrain: false,
  listMessages: false,
  addAttachment: false,
  removeAttachment: false,
  readAttachment: false,
  stop: false,
  chooseSibling: false,
  exportConversation: false,
  exportAllConversations: false,
  cancelExport: false,
  readExport: false,
  listMemories: false,
  addMemory: false,
  updateMemory: false,
  deleteMemory: false,
  listSkills: false,
  listTools: false,
  setToolPolicy: false,
  listMcpServers: false,
  saveMcpServer: false,
  setMcpServerEnabled: false,
  removeMcpServer: false,
  getGrantedFolders: false,
  setGrantedFolders: false,
  listApprovals: false,
  answerApproval: false,
  importTranscript: false,
  importConversations: false,
  previewRequest: false,
  getContextStatus: false,
  listCoveredMessages: false,
  getDataHealth: false,
  listNotAnswering: false,
  repairTexts: false,
  undoRepair: false,
  repairLivePaths: false,
  searchMessages: false,
  getUsage: false,
  getModelPrices: false,
  setModelPrice: false,
};

export function usesKeys(name: string): boolean {
  return Object.hasOwn(USES_KEYS, name) && USES_KEYS[name as CommandName];
}
