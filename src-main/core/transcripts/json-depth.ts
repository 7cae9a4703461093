/**
 * How deep a JSON value a file may carry where Anybrain keeps it as JSON (a tool call's input, a provider's opaque
 * reasoning blocks). Estimating, cutting and replaying a call walk its input level by level, so a value nested
 * thousands of levels deep would overflow the stack wherever it is next read; the import refuses it instead, naming
 * where it is. No provider's tool schema or reasoning item comes near this many levels.
 */
export const MAX_JSON_DEPTH = 100;

/** The problem an import names after the value's path. */
export const TOO_DEEP_PROBLEM = `nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether `value` holds arrays or objects inside one another more than `limit` levels deep (a scalar is 0 levels, `{}`
 * one). Walks with a stack of its own, never recursion, and stops at the first level past the limit.
 */
export function nestedDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ readonly value: unknown; readonly depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const item of Array.isArray(next.value) ? next.value : Object.values(next.value)) {
      if (typeof item === 'object' && item !== null) pending.push({ value: item, depth });
    }
  }
  return false;
}
