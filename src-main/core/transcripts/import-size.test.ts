import { describe, expect, it } from 'vitest';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { openTestDatabase } from '../store/test-database';
import { claudeExportToTranscripts } from './foreign/claude';
import { importFile } from './import-file';
import { MAX_STORED_PER_JSON_BYTE, refuseAmplifiedImport, STORED_ALLOWANCE_CHARACTERS, storedCharacters } from './import-size';

function transcriptHolding(characters: number): TranscriptV1 {
  return {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'c', title: 'Repeats', created_at: '2026-01-01T00:00:00.000Z' },
    messages: [{ id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'x'.repeat(characters), created_at: '2026-01-01T00:00:00.000Z' }],
  } as TranscriptV1;
}

describe('a conversion that would store many times its JSON', () => {
  it('is refused one character past the bound, and taken at it', () => {
    const jsonBytes = 1_000;
    const bound = STORED_ALLOWANCE_CHARACTERS + MAX_STORED_PER_JSON_BYTE * jsonBytes;
    expect(storedCharacters(transcriptHolding(bound))).toBe(bound);
    expect(() => refuseAmplifiedImport([transcriptHolding(bound)], jsonBytes)).not.toThrow();
    expect(() => refuseAmplifiedImport([transcriptHolding(bound - 10), transcriptHolding(11)], jsonBytes)).toThrow(
      'Importing this file would store more than 1.0 MB of text from its 0.0 MB of JSON (at most 8 times its size): it repeats what it holds far more than an export does. Nothing was imported.',
    );
  });

  it('is refused by the import before anything is written, whatever the converter made of the file', async () => {
    const db = openTestDatabase();
    const file = JSON.stringify([{ mapping: {}, title: 'Small' }]);
    // A converter that repeats what it reads (as the ChatGPT one did with a draft shared by many alternatives).
    const repeating = () => ({ transcripts: [transcriptHolding(STORED_ALLOWANCE_CHARACTERS + 8 * Buffer.byteLength(file) + 1)], skipped: [] });
    await expect(importFile(db, file, { chatgpt: repeating, claude: claudeExportToTranscripts }, () => undefined)).rejects.toThrow(
      /^Importing this file would store more than 1\.0 MB of text from its 0\.0 MB of JSON/,
    );
    expect(db.$client.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
  });
});
