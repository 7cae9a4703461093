/**
 * Object bombs: JSON that holds millions of objects in a few megabytes, inside every zip limit, refused before it is
 * parsed (a 62 KB zip of `[{},{},…]`, 21 million objects, took a minute and 3.6 GB before it was refused).
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTestDatabase } from '../store/test-database';
import { chatGptExportToTranscripts } from './foreign/chatgpt';
import { claudeExportToTranscripts } from './foreign/claude';
import { importFile, type ForeignConverters } from './import-file';
import { parseTranscript } from './import-check';
import { countJsonContainers, objectBombRefusal } from './json-shape';
import { zipOf } from './testing/hostile-zips';

const CONVERTERS: ForeignConverters = { chatgpt: chatGptExportToTranscripts, claude: claudeExportToTranscripts };

function emptyObjects(count: number): string {
  return `[${'{},'.repeat(count - 1)}{}]`;
}

function zipped(name: string, text: string): Uint8Array {
  const bytes = Buffer.from(text);
  return zipOf([{ name, data: deflateRawSync(bytes, { level: 9 }), method: 8, declaredSize: bytes.length }]);
}

describe('an object bomb', () => {
  it('in a zip within every limit, 21 million empty objects, is refused before it is parsed, naming the entry and the limit', async () => {
    const db = openTestDatabase();
    const zip = zipped('conversations.json', emptyObjects(21_000_000));
    // About 62 KB on the disk.
    expect(zip.length).toBeLessThan(100_000);
    await expect(importFile(db, zip, CONVERTERS, () => undefined)).rejects.toThrow(
      'conversations.json in the zip holds more than 4,000,000 objects and lists; Anybrain imports at most that many from one file. Export fewer conversations at a time. Nothing was imported.',
    );
    expect(db.$client.prepare('SELECT count(*) FROM conversations').pluck().get()).toBe(0);
  });

  it('packed tighter than any export, a million empty objects in a file, is refused with the figures', async () => {
    const db = openTestDatabase();
    await expect(importFile(db, emptyObjects(1_000_000), CONVERTERS, () => undefined)).rejects.toThrow(
      'The file holds 1,000,001 objects and lists in 3,000,001 characters, one in every 3.0: a conversation export has one in every 50 or more, so this is not one Anybrain can read. Nothing was imported.',
    );
  });

  it('as a transcript whose messages are empty objects, is refused before its schema is checked', () => {
    const text = JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Bomb', created_at: '2026-01-01T00:00:00.000Z' }, messages: [] }).replace(
      '"messages":[]',
      `"messages":${emptyObjects(500_000)}`,
    );
    expect(() => parseTranscript(text)).toThrow(/^The file holds 500,00\d objects and lists in /);
  });
});

describe('counting objects and lists', () => {
  it('skips strings, escaped quotes included, and stops once past its limit', () => {
    expect(countJsonContainers('{"a":[1,{"b":"[{\\"}"}],"c":{}}')).toBe(4);
    expect(countJsonContainers(emptyObjects(1_000), 10)).toBe(11);
  });

  it('reads the real exports kept as fixtures', () => {
    for (const app of ['chatgpt-export', 'claude-export']) {
      const text = readFileSync(join(import.meta.dirname, '../../../e2e/fixtures', app, 'conversations.json'), 'utf8');
      expect(objectBombRefusal(text, 'The file')).toBeNull();
    }
  });
});
