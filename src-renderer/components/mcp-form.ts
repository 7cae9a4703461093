/** What the MCP server forms' text fields mean: arguments one per line, environment variables as KEY=value lines. */

export type LinesParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
    if (!ENVIRONMENT_NAME.test(name)) {
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

/** The edit form's starting environment text: one `NAME=` line per stored variable, never its value. */
export function environmentNameLines(stored: Readonly<Record<string, string>>): string {
  return Object.keys(stored)
    .map((name) => `${name}=`)
    .join('\n');
}

/**
 * The edit form's environment, read as parseEnvironmentLines reads it: `NAME=` with nothing after the `=` keeps the
 * stored value of a variable the server already has, `NAME=value` sets the variable, and a stored variable without a
 * line is removed.
 */
export function mergeEnvironmentLines(text: string, stored: Readonly<Record<string, string>>): LinesParse<Record<string, string>> {
  const parsed = parseEnvironmentLines(text);
  if (!parsed.ok) return parsed;
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed.value)) {
    const storedValue = Object.hasOwn(stored, name) ? stored[name] : undefined;
    merged[name] = value === '' && storedValue !== undefined ? storedValue : value;
  }
  return { ok: true, value: merged };
}
