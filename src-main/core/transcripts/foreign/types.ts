import type { TranscriptV1 } from '../../../../src-shared/transcript';

/** Conversations read from another app's export, each as a transcript v1 document, and the entries left out. */
export interface ForeignImport {
  readonly transcripts: readonly TranscriptV1[];
  readonly skipped: readonly { readonly title: string; readonly reason: string }[];
}

/** The file is not what it claims to be; the message names the first bad path (`conversations[3].mapping`). */
export class ForeignImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForeignImportError';
  }
}
