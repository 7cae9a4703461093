/** `messages[3].role` from a zod path: how an import names the first bad place in a file. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

/** `["node-1"]`: a key of a record keyed by ids (ChatGPT's `mapping`), quoted since an id may hold any character. */
export function recordKeyPath(key: string): string {
  return `[${JSON.stringify(key)}]`;
}
