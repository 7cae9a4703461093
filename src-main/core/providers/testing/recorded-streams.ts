/** Test support for the adapter tests: feeding events to the pure mappers and reading the recorded real streams. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseServerSentEvents } from '../sse';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The recorded real streams, kept in the repository so a fresh clone has them (see their SOURCES.md). */
export function referencePath(...segments: string[]): string {
  return path.resolve(repoRoot, 'e2e/fixtures/reference', ...segments);
}

export function readReference(...segments: string[]): string {
  return readFileSync(referencePath(...segments), 'utf8');
}

/** The `data:` payloads of a recorded SSE file, parsed as JSON, pings included. */
export function recordedSseEvents(...segments: string[]): unknown[] {
  return parseServerSentEvents(readReference(...segments)).map((event) => JSON.parse(event.data) as unknown);
}

/** Yields the items, then throws `failure` when one is given (a socket dropping, an SDK error). */
export async function* eventsFrom(items: readonly unknown[], failure?: unknown): AsyncIterable<unknown> {
  for (const item of items) {
    await Promise.resolve();
    yield item;
  }
  if (failure !== undefined) throw failure;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
