/** What the MCP server forms' text fields mean: arguments one per line, environment variables as KEY=value lines. */
import { ENVIRONMENT_NAME_PATTERN } from '../../src-shared/tool-rules';

export type LinesParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

function lines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** Each line is one argument, passed as it is (no quoting, no splitting on spaces); blank lines are skipped. */
export function parseArgumentLines(text: string): string[] {
  return lines(text).filter((line) => line.trim() !== '');
}

/**
 * `KEY=value` per line: the name ends at the first `=`, so the value may itself hold `=`. Blank lines are skipped;
 * the first line that is not a variable is reported by its number, without echoing a value that may be secret.
 */
export function parseEnvironmentLines(text: string): LinesParse<Record<string, string>> {
  const environment: Record<string, string> = {};
  const all = lines(text);
  for (let index = 0; index < all.length; index += 1) {
    const line = all[index] ?? '';
    if (line.trim() === '') continue;
    const lineNumber = index + 1;
    const separator = line.indexOf('=');
    if (separator === -1) {
      return { ok: false, problem: `Environment line ${lineNumber} has no “=”. Write each variable as KEY=value.` };
    }
    const name = line.slice(0, separator).trim();
    if (!ENVIRONMENT_NAME_PATTERN.test(name)) {
      return {
        ok: false,
        problem: `Environment line ${lineNumber}: “${name}” is not a variable name. Use letters, digits and _, not starting with a digit.`,
      };
    }
    if (Object.hasOwn(environment, name)) {
      return { ok: false, problem: `Environment line ${lineNumber}: ${name} is already set on an earlier line.` };
    }
    environment[name] = line.slice(separator + 1);
  }
  return { ok: true, value: environment };
}

/** A variable the server already has, as the edit form holds it: its value is never known here. */
export interface StoredVariableEdit {
  readonly name: string;
  /** What the user typed as a new value; empty keeps the stored value. */
  readonly replacement: string;
  readonly removed: boolean;
}

export function storedVariableEdits(names: readonly string[]): StoredVariableEdit[] {
  return names.map((name) => ({ name, replacement: '', removed: false }));
}

/**
 * The environment an edit saves, in saveMcpServer's terms: a stored variable left empty is `null` (keep the stored
 * value), one given a new value carries it, a removed one is left out, and `additions` (KEY=value lines, read as
 * parseEnvironmentLines reads them) adds new variables. A stored variable may be added again only after removing it.
 */
export function editedEnvironment(stored: readonly StoredVariableEdit[], additions: string): LinesParse<Record<string, string | null>> {
  const parsed = parseEnvironmentLines(additions);
  if (!parsed.ok) return parsed;
  const environment: Record<string, string | null> = {};
  for (const variable of stored) {
    if (!variable.removed) environment[variable.name] = variable.replacement === '' ? null : variable.replacement;
  }
  for (const [name, value] of Object.entries(parsed.value)) {
    if (Object.hasOwn(environment, name)) {
      return { ok: false, problem: `${name} is already set above: type its new value there.` };
    }
    environment[name] = value;
  }
  return { ok: true, value: environment };
}
