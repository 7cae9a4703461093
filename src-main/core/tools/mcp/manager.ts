/**
 * All configured MCP servers: one host per enabled server, their tools as catalogue definitions, their statuses.
 * The manager owns its hosts; its owner disposes of the manager.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition, ToolResult } from '../catalogue';
import { parseServerConfigs, type McpServerConfig } from './config';
import { McpServerHost, type AsyncDisposable, type McpHostOptions, type McpServerState } from './host';
import { namespaceTools } from './tool-names';
import { pendingCalls } from '../../outside/pending-calls';
import { settlesWithin, unlessAborted } from './waiting';

/** One server as the manager sees it: its config's name and switch, and how its process is doing. */
export interface McpServerReport {
  readonly id: string;
  readonly label: string;
  readonly enabled: boolean;
  /** A disabled server is always `stopped`. */
  readonly status: McpServerState;
  readonly lastError: string | null;
  /** How many tools the server offered when last listed; null before it was listed. */
  readonly toolCount: number | null;
}

export interface McpManagerOptions {
  readonly hostOptions?: Partial<McpHostOptions>;
  /** How long a turn waits for a server to list its tools before going on without them. */
  readonly listTimeoutMs?: number;
  /**
   * Told when a server has not listed its tools within `listTimeoutMs` (`silent: true`), and when it answers or fails
   * afterwards (`silent: false`).
   */
  readonly onSilence?: (server: { readonly id: string; readonly label: string }, silent: boolean, waitedMs: number) => void;
}

export const DEFAULT_LIST_TIMEOUT_MS = 10_000;

/** Same program, arguments and environment: a running process for one serves the other. */
function sameServer(left: McpServerConfig, right: McpServerConfig): boolean {
  return JSON.stringify([left.label, left.command, left.args, Object.entries(left.env).sort(), left.enabled]) ===
    JSON.stringify([right.label, right.command, right.args, Object.entries(right.env).sort(), right.enabled]);
}

export class McpManager implements AsyncDisposable {
  private readonly options: McpManagerOptions;
  private configs: McpServerConfig[] = [];
  private readonly hosts = new Map<string, McpServerHost>();
  private readonly toolCounts = new Map<McpServerHost, number>();
  /** Each running server's tools as it last listed them: offered while it restarts and lists again. */
  private readonly lastListed = new Map<McpServerHost, ToolDefinition[]>();
  /**
   * Servers whose listing outlived a turn's wait and has not answered since: later turns do not wait for them again,
   * and take their tools once the listing (which goes on, up to the host's own time limit) answers.
   */
  private readonly silent = new Set<McpServerHost>();
  /** Servers whose listing is counted as an outside call under way. */
  private readonly listing = new Set<McpServerHost>();
  /** Hosts being disposed, so `dispose()` waits for them too. */
  private readonly stopping = new Set<Promise<void>>();
  private disposed = false;

  constructor(options: McpManagerOptions = {}) {
    this.options = options;
  }

  /**
   * Reconciles the running servers with the configs: removed, disabled and changed servers are stopped (awaited),
   * unchanged ones keep running, new enabled ones get a host that starts on first use. Throws on an invalid list.
   */
  async setConfigs(configs: readonly McpServerConfig[]): Promise<void> {
    if (this.disposed) throw new Error('The MCP servers are shut down.');
    const parsed = parseServerConfigs(configs);
    if (!parsed.ok) throw new Error(`The MCP server list is not valid: ${parsed.problem}`);
    this.configs = parsed.value;
    const wanted = new Map(this.configs.filter((config) => config.enabled).map((config) => [config.id, config]));
    const stops: Promise<void>[] = [];
    for (const [id, host] of this.hosts) {
      const config = wanted.get(id);
      if (config && sameServer(config, host.config)) continue;
      this.hosts.delete(id);
      stops.push(this.stop(host));
    }
    for (const [id, config] of wanted) {
      if (!this.hosts.has(id)) this.hosts.set(id, new McpServerHost(config, this.options.hostOptions));
    }
    await Promise.all(stops);
  }

  /** The host of an enabled server, or undefined. */
  host(serverId: string): McpServerHost | undefined {
    return this.hosts.get(serverId);
  }

  statuses(): McpServerReport[] {
    return this.configs.map((config) => {
      const host = this.hosts.get(config.id);
      return {
        id: config.id,
        label: config.label,
        enabled: config.enabled,
        status: host?.status() ?? 'stopped',
        lastError: host?.lastError() ?? null,
        toolCount: host ? (this.toolCounts.get(host) ?? null) : null,
      };
    });
  }

  /**
   * Every enabled server's tools, as `<serverId>__<tool>` definitions (see tool-names.ts), in the order of their names
   * (by code point, the same on every machine): a server may list its tools in any order, and the declarations are
   * part of the start of every request that providers' prompt caches key on. Starts servers that are not running. A
   * server that fails contributes nothing; its error shows in `statuses()`.
   */
  async toolDefinitions(signal?: AbortSignal): Promise<ToolDefinition[]> {
    const hosts = [...this.hosts.values()];
    const perServer = await Promise.all(hosts.map((host) => this.definitionsOf(host, signal)));
    return perServer.flat().sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  }

  /** Stops every server and waits until every process is gone. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const hosts = [...this.hosts.values()];
    this.hosts.clear();
    await Promise.all([...hosts.map((host) => this.stop(host)), ...this.stopping]);
  }

  private stop(host: McpServerHost): Promise<void> {
    this.hearFrom(host);
    this.lastListed.delete(host);
    const stopped = host.dispose().finally(() => {
      this.stopping.delete(stopped);
      this.toolCounts.delete(host);
    });
    this.stopping.add(stopped);
    return stopped;
  }

  /** The server answered, or failed in a way `statuses()` reports: it no longer counts as silent. */
  private hearFrom(host: McpServerHost): void {
    if (!this.silent.delete(host)) return;
    this.options.onSilence?.(host.config, false, 0);
  }

  private async definitionsOf(host: McpServerHost, signal: AbortSignal | undefined): Promise<ToolDefinition[]> {
    const waitMs = this.options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
    // One listing per process, shared by every turn that asks while it runs (the host keeps it).
    const listing = host.listTools();
    if (!this.listing.has(host)) {
      this.listing.add(host);
      void pendingCalls
        .track(`the MCP server “${host.config.label}”: listing its tools`, listing)
        .catch(() => undefined)
        .finally(() => this.listing.delete(host));
    }
    let tools;
    try {
      const answered = await settlesWithin(unlessAborted(listing, signal), this.silent.has(host) ? 0 : waitMs);
      if (!answered) {
        if (!this.silent.has(host)) {
          this.silent.add(host);
          this.options.onSilence?.(host.config, true, waitMs);
        }
        listing.then(
          () => this.hearFrom(host),
          (error: unknown) => {
            // A listing that timed out is the server still not answering; a crash or a refusal is an answer.
            if (!(error instanceof McpError && error.code === ErrorCode.RequestTimeout)) this.hearFrom(host);
          },
        );
        // A server that listed before (and restarted, or is slow to start again) keeps its tools in the request: the
        // declarations are part of the start providers' prompt caches key on, and its earlier calls stay calls.
        return this.lastListed.get(host) ?? [];
      }
      if (signal?.aborted) return [];
      tools = await listing;
    } catch {
      // The host keeps the failure for statuses(); the other servers' tools still count.
      return [];
    }
    this.hearFrom(host);
    this.toolCounts.set(host, tools.length);
    const { id: serverId, label } = host.config;
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const definitions: ToolDefinition[] = [];
    for (const [wireName, toolName] of namespaceTools(serverId, tools.map((tool) => tool.name))) {
      const tool = byName.get(toolName);
      if (!tool) continue;
      definitions.push({
        name: wireName,
        description: tool.description === '' ? `${label}: ${toolName}` : `${label}: ${tool.description}`,
        inputSchema: tool.inputSchema,
        server: serverId,
        // The host is looked up per call, so a definition outlives a restart or a reconfiguration of its server.
        execute: (input, context): Promise<ToolResult> => {
          const current = this.hosts.get(serverId);
          if (!current) return Promise.resolve({ output: `The MCP server "${label}" is no longer enabled.`, isError: true });
          return current.callTool(toolName, input, context.signal);
        },
      });
    }
    this.lastListed.set(host, definitions);
    return definitions;
  }
}
