import type { Output } from './commands';

/** A command's output kept in two strings, for tests that read what it printed. */
export function capture(): Output & { out: string; err: string } {
  const sink = { out: '', err: '', stdout: (text: string) => (sink.out += text), stderr: (text: string) => (sink.err += text) };
  return sink;
}
