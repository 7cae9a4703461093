/** What an MCP host is told: its timeouts, restart budget and grace periods, and how its process is started. */

/** A tool as the server lists it. */
export interface McpToolInfo {
  /** The tool's own name, as the server declares it. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface McpHostOptions {
  /** How long one tool call may take before it is cancelled. */
  readonly toolTimeoutMs: number;
  /** How long the process may take to spawn and answer `initialize`. */
  readonly startTimeoutMs: number;
  /** Restarts allowed within a minute after crashes or failed starts; past that the server is reported failing. */
  readonly maxRestartsPerMinute: number;
  /** Wait before the first restart; it doubles for each further restart within the minute. */
  readonly restartBackoffMs: number;
  /** After closing the server's stdin (the MCP way to ask it to exit), how long to wait before SIGTERM. */
  readonly closeGraceMs: number;
  /** After SIGTERM, how long to wait before SIGKILL. */
  readonly killGraceMs: number;
  /** The server's working directory; the app's when unset. */
  readonly cwd?: string;
  /** The environment the minimal server environment is drawn from (PATH, HOME). */
  readonly parentEnvironment?: NodeJS.ProcessEnv;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

export const DEFAULT_HOST_OPTIONS: McpHostOptions = {
  toolTimeoutMs: 30_000,
  startTimeoutMs: 30_000,
  maxRestartsPerMinute: 3,
  restartBackoffMs: 250,
  closeGraceMs: 1_000,
  killGraceMs: 2_000,
  clientInfo: { name: 'anybrain', version: '0.1.0' },
};
