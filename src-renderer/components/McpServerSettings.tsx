import { useEffect } from 'react';
import { useAppStore } from '../state/store';
import { loadMcpServers } from '../state/tool-actions';
import { McpServerAddForm } from './McpServerAddForm';
import { McpServerRow } from './McpServerRow';
import { LearnMore } from './LearnMore';
import { SectionLoadError } from './SectionLoadError';
import { useSectionLoad } from './useSectionLoad';

/** How often statuses are fetched again while a server is starting. */
const STARTING_POLL_MS = 1_000;

export function McpServerSettings() {
  const servers = useAppStore((state) => state.mcpServers);
  const load = useSectionLoad(loadMcpServers);
  const anyStarting = servers?.some((server) => server.status === 'starting') ?? false;

  useEffect(() => {
    if (!anyStarting) return;
    const timer = setTimeout(() => void loadMcpServers().catch(() => undefined), STARTING_POLL_MS);
    return () => clearTimeout(timer);
  }, [anyStarting, servers]);

  return (
    <section className="settings-subsection" aria-labelledby="mcp-servers-title">
      <h3 id="mcp-servers-title">MCP servers</h3>
      <p className="field-hint">Programs on this computer that give brains more tools.</p>
      <LearnMore about="MCP servers">
        They offer their tools over the Model Context Protocol. A server starts when its tools are first needed.
      </LearnMore>
      {load.error !== null ? (
        <SectionLoadError what="the MCP servers" error={load.error} onRetry={load.retry} />
      ) : servers === null ? (
        <p className="muted">Loading servers…</p>
      ) : servers.length === 0 ? (
        <p className="settings-empty">No MCP servers yet.</p>
      ) : (
        <ul className="settings-list mcp-servers" aria-label="MCP servers">
          {servers.map((server) => (
            <McpServerRow key={server.id} server={server} />
          ))}
        </ul>
      )}
      <McpServerAddForm />
    </section>
  );
}
