/**
 * The MCP servers the user configured, as kept at rest: the program, its arguments and the *names* of its environment
 * variables in the settings row `mcpServers`; the variables' values in the host's secret store (see
 * secrets/secret-store.ts). Values are joined back only here, in the main process, to start a server.
 *
 * Only the user's own click turns a server on (`setEnabled`): a save that adds a server or changes what it runs
 * (command, arguments, environment) always leaves it disabled, because the Api is reachable by more than the window
 * and a changed command would otherwise run unseen. A label-only save keeps the server as it was.
 */
import { z } from 'zod';
import { ApiError, type McpServerView } from '../../src-shared/api';
import type { SecretStore } from './secrets/secret-store';
import type { AppDatabase } from './store/open';
import { overwriteSettingLeavingNoTrace, readSetting, writeSetting } from './store/settings';
import { admitServer, commandProblem, MCP_SERVER_ORIGINS, parseServerConfig, parseServerConfigs, type McpServerConfig } from './tools/mcp';

/** A server as stored: its view without the running state. The values of `envNames` live in the secret store. */
export type StoredMcpServer = Omit<McpServerView, 'status' | 'error'>;

/** A save from the Api: an environment value of `null` keeps the value stored for that variable. */
export interface McpServerSave {
  readonly id?: string | undefined;
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | null>>;
  /** Older callers' field: it can keep a server on through a label-only save or turn it off, never turn it on. */
  readonly enabled?: boolean | undefined;
}

const storedServerSchema = z.object({
  id: z.string(),
  label: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  envNames: z.array(z.string()),
  enabled: z.boolean(),
  origin: z.enum(MCP_SERVER_ORIGINS),
});

/** The shape before values moved out of SQLite: `env` held each variable's value. */
const legacyServerSchema = z.looseObject({ id: z.string(), env: z.record(z.string(), z.unknown()) });

export function mcpSecretName(serverId: string, variable: string): string {
  return `mcp-env/${serverId}/${variable}`;
}

/** An id for a new server from its label: lower-case, dashes, unique. */
export function uniqueServerId(label: string, existing: readonly { readonly id: string }[]): string {
  const base = label.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24) || 'server';
  let candidate = base;
  for (let suffix = 2; existing.some((server) => server.id === candidate); suffix += 1) candidate = `${base}-${suffix}`;
  return candidate;
}

/**
 * A server as the Api shows it, built from what is stored and never from a resolved config: the view carries variable
 * names, not values. `running` is what the server's process last reported, if it was started.
 */
export function toMcpServerView(
  server: StoredMcpServer,
  running: { readonly status: McpServerView['status']; readonly lastError: string | null } | undefined,
): McpServerView {
  return {
    id: server.id,
    label: server.label,
    command: server.command,
    args: [...server.args],
    envNames: [...server.envNames],
    enabled: server.enabled,
    origin: server.origin,
    status: server.enabled ? (running?.status ?? 'stopped') : 'disabled',
    error: running?.lastError ?? null,
  };
}

function sameStrings(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

function sameEnvironment(left: Readonly<Record<string, string>>, right: Readonly<Record<string, string>>): boolean {
  const leftNames = Object.keys(left).sort();
  return sameStrings(leftNames, Object.keys(right).sort()) && leftNames.every((name) => left[name] === right[name]);
}

export class McpServerStore {
  constructor(
    private readonly db: AppDatabase,
    private readonly secrets: SecretStore,
  ) {}

  /** The servers as stored; an entry that does not read as a server is left out. */
  stored(): StoredMcpServer[] {
    const raw = readSetting(this.db, 'mcpServers') ?? [];
    return raw.flatMap((entry) => {
      const parsed = storedServerSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** The servers with their environment values, to start them. A value this host cannot read is left unset. */
  configs(): McpServerConfig[] {
    const seen = new Set<string>();
    // An entry an older or newer version wrote that no longer validates is left out rather than failing every server.
    return this.stored()
      .map((server) => this.resolve(server))
      .filter((config) => {
        if (seen.has(config.id) || !parseServerConfig(config).ok) return false;
        seen.add(config.id);
        return true;
      });
  }

  /** Adds (no id, or an unknown one) or replaces a server. Throws an ApiError the user can act on. */
  save(input: McpServerSave): StoredMcpServer {
    const problem = commandProblem(input.command, input.args);
    if (problem) throw new ApiError('invalid-input', problem);
    const current = this.stored();
    const serverId = input.id ?? uniqueServerId(input.label, current);
    const previous = current.find((server) => server.id === serverId);
    const previousEnvironment = previous ? this.resolve(previous).env : {};
    const environment: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.env)) {
      if (value !== null) {
        environment[name] = value;
        continue;
      }
      const kept = Object.hasOwn(previousEnvironment, name) ? previousEnvironment[name] : undefined;
      if (kept === undefined) throw new ApiError('invalid-input', `${name} has no stored value to keep. Enter its value.`);
      environment[name] = kept;
    }
    const runsTheSame =
      previous !== undefined &&
      previous.command === input.command &&
      sameStrings(previous.args, input.args) &&
      sameEnvironment(previousEnvironment, environment);
    const enabled = runsTheSame && previous.enabled && input.enabled !== false;
    // Saved from the user's own form: origin `user`, on only where the rule above allows.
    const config = admitServer({ id: serverId, label: input.label, command: input.command, args: input.args, env: environment, enabled }, 'user');
    const others = current.filter((server) => server.id !== serverId);
    const checked = parseServerConfigs([...others.map((server) => this.resolve(server)), config]);
    if (!checked.ok) throw new ApiError('invalid-input', checked.problem);

    // Field by field: the config carries the values, and none of them may reach the settings row.
    const saved: StoredMcpServer = {
      id: config.id,
      label: config.label,
      command: config.command,
      args: [...config.args],
      envNames: Object.keys(environment),
      enabled: config.enabled,
      origin: config.origin,
    };
    const valueChanges: Record<string, string | null> = {};
    for (const [name, value] of Object.entries(environment)) valueChanges[mcpSecretName(serverId, name)] = value;
    const removedNames = Object.keys(previousEnvironment).filter((name) => !Object.hasOwn(environment, name));
    // Values first: a crash before the settings write leaves values nobody names, never names without values.
    this.secrets.write(valueChanges);
    writeSetting(this.db, 'mcpServers', [...others, saved]);
    this.forget(serverId, removedNames);
    return saved;
  }

  /** The user's own toggle in the window. Returns false when there is no such server. */
  setEnabled(serverId: string, enabled: boolean): boolean {
    const current = this.stored();
    if (!current.some((server) => server.id === serverId)) return false;
    writeSetting(
      this.db,
      'mcpServers',
      current.map((server) => (server.id === serverId ? { ...server, enabled } : server)),
    );
    return true;
  }

  remove(serverId: string): void {
    const current = this.stored();
    const removed = current.find((server) => server.id === serverId);
    if (!removed) return;
    writeSetting(this.db, 'mcpServers', current.filter((server) => server.id !== serverId));
    this.forget(serverId, removed.envNames);
  }

  /**
   * Moves environment values an older version kept in the settings row into the secret store, and leaves only their
   * names in SQLite. The row is rewritten with `secure_delete` on and the WAL checkpointed and truncated, so the old
   * bytes do not linger in freed space or in old WAL frames. Returns how many values moved.
   */
  moveLegacyValues(): number {
    const raw = readSetting(this.db, 'mcpServers');
    if (!Array.isArray(raw)) return 0;
    const valueChanges: Record<string, string> = {};
    let legacyEntries = 0;
    const rewritten = raw.map((entry) => {
      const legacy = legacyServerSchema.safeParse(entry);
      if (!legacy.success) return entry;
      legacyEntries += 1;
      const { env, ...rest } = legacy.data;
      const envNames: string[] = [];
      for (const [name, value] of Object.entries(env)) {
        if (typeof value !== 'string') continue;
        envNames.push(name);
        valueChanges[mcpSecretName(legacy.data.id, name)] = value;
      }
      return { ...rest, envNames };
    });
    if (legacyEntries === 0) return 0;
    this.secrets.write(valueChanges);
    overwriteSettingLeavingNoTrace(this.db, 'mcpServers', rewritten);
    return Object.keys(valueChanges).length;
  }

  private resolve(server: StoredMcpServer): McpServerConfig {
    const values = this.secrets.getMany(server.envNames.map((name) => mcpSecretName(server.id, name)));
    const env: Record<string, string> = {};
    for (const name of server.envNames) {
      const value = values.get(mcpSecretName(server.id, name));
      if (value !== undefined) env[name] = value;
    }
    return { id: server.id, label: server.label, command: server.command, args: [...server.args], env, enabled: server.enabled, origin: server.origin };
  }

  private forget(serverId: string, names: readonly string[]): void {
    if (names.length === 0) return;
    this.secrets.write(Object.fromEntries(names.map((name) => [mcpSecretName(serverId, name), null])));
  }
}
