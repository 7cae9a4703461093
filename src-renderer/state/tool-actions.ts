import type { McpServerView, ToolPolicyValue, ToolView } from '../../src-shared/api';
import { api } from './api-client';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

/** The fields `saveMcpServer` takes for a new server, and the ones an edit changes. */
export interface McpServerDraft {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  /** `null` keeps the value the main process has stored for that variable (the window never learns it). */
  readonly env: Readonly<Record<string, string | null>>;
}

export function applyTools(tools: readonly ToolView[]): void {
  setState({ tools });
}

/*
 * Loaders and commands throw the Api's error, for each settings section to show beside its own controls.
 * Listing tools starts the MCP servers that serve them, so server statuses are fetched again after it.
 */

export async function loadTools(): Promise<void> {
  applyTools(await api().listTools({}));
}

export async function loadMcpServers(): Promise<void> {
  setState({ mcpServers: await api().listMcpServers({}) });
}

export async function loadToolsThenServerStatuses(): Promise<void> {
  await loadTools();
  await loadMcpServers().catch(() => undefined);
}

export async function loadGrantedFolders(): Promise<void> {
  setState({ grantedFolders: (await api().getGrantedFolders({})).folders });
}

export async function loadSkills(): Promise<void> {
  setState({ skills: await api().listSkills({}) });
}

let skillsRequest: Promise<void> | null = null;

/** Refreshes the skills the composer suggests; a failure leaves the last list, since suggestions are only a help. */
export function refreshSkillSuggestions(): void {
  skillsRequest ??= loadSkills()
    .catch(() => undefined)
    .finally(() => {
      skillsRequest = null;
    });
}

export async function setToolPolicy(tool: ToolView, policy: ToolPolicyValue): Promise<void> {
  applyTools(await api().setToolPolicy({ server: tool.server, tool: tool.tool, policy }));
}

async function afterServersChanged(mcpServers: readonly McpServerView[]): Promise<void> {
  setState({ mcpServers });
  // The change is saved; on a failure the lists show what was known until they are loaded again.
  await loadToolsThenServerStatuses().catch(() => undefined);
}

/** Saves a new server; the main process keeps it disabled until the user enables it. */
export async function addMcpServer(draft: McpServerDraft): Promise<void> {
  await afterServersChanged(await api().saveMcpServer({ ...draft, args: [...draft.args], env: { ...draft.env } }));
}

/** Replaces an existing server's fields. A change to what it runs leaves it disabled; a new label alone does not. */
export async function updateMcpServer(server: McpServerView, draft: McpServerDraft): Promise<void> {
  const { label, command, args, env } = draft;
  await afterServersChanged(await api().saveMcpServer({ id: server.id, label, command, args: [...args], env: { ...env } }));
}

/** The user's own toggle or Enable click: the only way a server starts running. */
export async function setMcpServerEnabled(server: McpServerView, enabled: boolean): Promise<void> {
  await afterServersChanged(await api().setMcpServerEnabled({ id: server.id, enabled }));
}

export async function removeMcpServer(serverId: string): Promise<void> {
  await afterServersChanged(await api().removeMcpServer({ id: serverId }));
}

async function saveGrantedFolders(folders: readonly string[]): Promise<void> {
  setState({ grantedFolders: (await api().setGrantedFolders({ folders: [...folders] })).folders });
}

async function currentGrantedFolders(): Promise<readonly string[]> {
  return getState().grantedFolders ?? (await api().getGrantedFolders({})).folders;
}

export async function addGrantedFolder(folder: string): Promise<void> {
  const current = await currentGrantedFolders();
  if (current.includes(folder)) return;
  await saveGrantedFolders([...current, folder]);
}

export async function removeGrantedFolder(folder: string): Promise<void> {
  await saveGrantedFolders((await currentGrantedFolders()).filter((granted) => granted !== folder));
}
