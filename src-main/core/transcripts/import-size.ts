/**
 * What converting another app's export may store, against the export's own JSON. A converter keeps each piece of the
 * export once (branches share the messages before their fork), so what it stores is about the size of the file; only
 * the short notes standing for what the export names without holding (an image, a file) can be longer than what they
 * stand for. A conversion that would store many times its file is refused before anything is written, rather than
 * filling the memory or the disk.
 */
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { TranscriptImportError } from './import';

/** At most this many characters stored per byte of the export's JSON. */
export const MAX_STORED_PER_JSON_BYTE = 8;

/** What any export may store whatever its size: a small file's notes can be longer than the file. */
export const STORED_ALLOWANCE_CHARACTERS = 1_000_000;

/** The characters a transcript's rows hold: each message's words and reasoning, each call's input and output. */
export function storedCharacters(transcript: TranscriptV1): number {
  let characters = 0;
  for (const message of transcript.messages) {
    characters += message.text.length + (message.reasoning?.text.length ?? 0);
    for (const invocation of message.tool_invocations ?? []) {
      characters += JSON.stringify(invocation.input ?? {}).length + (invocation.output?.length ?? 0);
    }
  }
  return characters;
}

function megabytes(size: number): string {
  return `${(size / 1_000_000).toFixed(1)} MB`;
}

/** Refuses converted transcripts that would store more than the bound for an export of `jsonBytes`. */
export function refuseAmplifiedImport(transcripts: readonly TranscriptV1[], jsonBytes: number): void {
  const limit = STORED_ALLOWANCE_CHARACTERS + MAX_STORED_PER_JSON_BYTE * jsonBytes;
  let stored = 0;
  for (const transcript of transcripts) {
    stored += storedCharacters(transcript);
    if (stored > limit) {
      throw new TranscriptImportError(
        `Importing this file would store more than ${megabytes(limit)} of text from its ${megabytes(jsonBytes)} of JSON (at most ${MAX_STORED_PER_JSON_BYTE} times its size): ` +
          'it repeats what it holds far more than an export does. Nothing was imported.',
      );
    }
  }
}
