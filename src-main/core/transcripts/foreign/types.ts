/**
 * What a converter of another app's data export gives the importer: one transcript v1 document per conversation it
 * could read, and the conversations it could not, each with the reason a person can act on.
 */
import type { TranscriptV1 } from '../../../../src-shared/transcript';

export interface ForeignImport {
  readonly transcripts: readonly TranscriptV1[];
  readonly skipped: readonly { readonly title: string; readonly reason: string }[];
}

/** The file does not have the export's shape; the message names the first bad path (`conversations[3].mapping`). */
export class ForeignImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForeignImportError';
  }
}

/** A converter: pure, the parsed JSON document in, transcripts out; throws `ForeignImportError` for a damaged file. */
export type ForeignConverter = (document: unknown) => ForeignImport;

/**
 * An export is told by its first conversations: every conversation of an app's export has its shape, and asking all of
 * a list of millions of empty objects cost a minute.
 */
export const RECOGNISED_BY_FIRST = 100;
