/**
 * MCP server configuration: what the user (or an import) declares, validated before anything is spawned.
 * A server is a program and its argument vector, run directly without a shell, so nothing in a config is ever
 * interpreted by a shell.
 */
import { z } from 'zod';
import {
  ENVIRONMENT_NAME_PATTERN,
  MCP_LABEL_MAX_LENGTH,
  MCP_SERVER_ID_PATTERN,
  MCP_SERVER_ORIGINS,
  type McpServerOrigin,
} from '../../../../src-shared/tool-rules';

export { MCP_SERVER_ORIGINS, type McpServerOrigin };

export interface McpServerConfig {
  /** Slug, unique among servers; the namespace of the server's tool names (`<id>__<tool>`). */
  readonly id: string;
  readonly label: string;
  /** The program to run: a name found on PATH or a path. Never a command line. */
  readonly command: string;
  readonly args: readonly string[];
  /** Set on top of the minimal environment the server starts with (see `environment.ts`). */
  readonly env: Readonly<Record<string, string>>;
  readonly enabled: boolean;
  readonly origin: McpServerOrigin;
}

/** Operators that only mean something to a shell; no program path needs them. */
const SHELL_OPERATORS = /[|;<>`\n\r]|&&|\$\(|\$\{/;
/** Characters a shell would expand or interpret; a sign the text was written for a shell. */
const SHELL_METACHARACTERS = /[|&;<>$`"'*?[\]#!{}]/;

/**
 * Whether a command with no arguments is a whole command line (`npx -y @scope/server /tmp`) rather than a program
 * whose path contains spaces (`/Applications/My Tools/server`): it has shell metacharacters, a token after the first
 * looks like an option or a package, or the first token is a bare program name rather than a path.
 */
function looksLikeCommandLine(command: string): boolean {
  if (SHELL_METACHARACTERS.test(command)) return true;
  const [first = '', ...rest] = command.split(/\s+/);
  if (!/[\\/]/.test(first)) return true;
  return rest.some((token) => token.startsWith('-') || token.startsWith('@'));
}

function splitSuggestion(command: string): string {
  const [program = '', ...args] = command.split(/\s+/).map((token) => token.replace(/^["']|["']$/g, ''));
  return `command ${JSON.stringify(program)} and args ${JSON.stringify(args)}`;
}

/** A problem with the command, in words the user can act on; null when the command is acceptable. */
export function commandProblem(command: string, args: readonly string[]): string | null {
  const trimmed = command.trim();
  if (trimmed === '') return 'The command is empty. Enter the program to run, for example "npx" or "/usr/local/bin/my-server".';
  if (trimmed !== command) return 'The command starts or ends with spaces. Remove them.';
  if (command.includes('\0') || args.some((arg) => arg.includes('\0'))) return 'The command or an argument contains a NUL character.';
  if (args.length === 0 && /\s/.test(command) && looksLikeCommandLine(command)) {
    return (
      `The command "${command}" looks like a whole command line. Servers run without a shell, so split it: put only ` +
      `the program in the command and each argument in its own entry, e.g. ${splitSuggestion(command)}.`
    );
  }
  if (SHELL_OPERATORS.test(command)) {
    return `The command "${command}" contains shell operators (| ; < > \` && $( ), which do nothing here: servers run without a shell. Put only the program in the command.`;
  }
  return null;
}

const envSchema = z.record(
  z.string().regex(ENVIRONMENT_NAME_PATTERN, 'Environment variable names use letters, digits and _, and do not start with a digit.'),
  z.string().refine((value) => !value.includes('\0'), 'An environment value contains a NUL character.'),
);

export const mcpServerConfigSchema = z
  .object({
    id: z.string().regex(MCP_SERVER_ID_PATTERN, 'The id is 1 to 31 lowercase letters, digits or -, starting with a letter or digit.'),
    label: z
      .string()
      .trim()
      .min(1, 'The label is empty.')
      .max(MCP_LABEL_MAX_LENGTH, `The label is longer than ${MCP_LABEL_MAX_LENGTH} characters.`),
    command: z.string(),
    args: z.array(z.string()),
    env: envSchema,
    enabled: z.boolean(),
    origin: z.enum(MCP_SERVER_ORIGINS),
  })
  .superRefine((config, context) => {
    const problem = commandProblem(config.command, config.args);
    if (problem) context.addIssue({ code: 'custom', path: ['command'], message: problem });
  });

export const mcpServerListSchema = z.array(mcpServerConfigSchema).superRefine((configs, context) => {
  const seen = new Set<string>();
  configs.forEach((config, index) => {
    if (seen.has(config.id)) context.addIssue({ code: 'custom', path: [index, 'id'], message: `Two servers have the id "${config.id}".` });
    seen.add(config.id);
  });
});

export type ConfigParse<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly problem: string };

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The server configuration is not valid.';
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

export function parseServerConfig(value: unknown): ConfigParse<McpServerConfig> {
  const parsed = mcpServerConfigSchema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: firstProblem(parsed.error) };
}

/** The whole list, as stored in settings: every config valid and every id unique. */
export function parseServerConfigs(value: unknown): ConfigParse<McpServerConfig[]> {
  const parsed = mcpServerListSchema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: firstProblem(parsed.error) };
}

/**
 * A server as it enters the list. Only the user's own click may add a server that runs: a server arriving any other
 * way is kept disabled until the user turns it on, because its command would otherwise run unseen.
 */
export function admitServer(config: Omit<McpServerConfig, 'origin'> & { readonly origin?: McpServerOrigin }, origin: McpServerOrigin): McpServerConfig {
  return {
    id: config.id,
    label: config.label,
    command: config.command,
    args: [...config.args],
    env: { ...config.env },
    enabled: origin === 'user' ? config.enabled : false,
    origin,
  };
}

/** Validates a candidate, admits it under its origin and appends it, refusing an id already in the list. */
export function addServerConfig(existing: readonly McpServerConfig[], candidate: unknown, origin: McpServerOrigin): ConfigParse<McpServerConfig[]> {
  const parsed = parseServerConfig(candidate !== null && typeof candidate === 'object' ? { ...candidate, origin } : candidate);
  if (!parsed.ok) return parsed;
  if (existing.some((config) => config.id === parsed.value.id)) {
    return { ok: false, problem: `id: A server with the id "${parsed.value.id}" already exists.` };
  }
  return { ok: true, value: [...existing, admitServer(parsed.value, origin)] };
}
