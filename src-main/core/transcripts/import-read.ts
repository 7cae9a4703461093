/**
 * What a file to import is, told by its content and never by its name: a zip (ChatGPT sends its export as one), an
 * Anybrain transcript v1, ChatGPT's `conversations.json` or Claude's. Every conversation it holds becomes a transcript
 * v1 document checked whole here, before anything is written. Pure (no database), so it can run off the main thread;
 * today the import commands run it on the main thread.
 */
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { startsLikeZip } from '../../../src-shared/zip-signature';
import { looksLikeChatGptExport } from './foreign/chatgpt';
import { isClaudeExport } from './foreign/claude';
import { ForeignImportError, type ForeignConverter } from './foreign/types';
import { TranscriptImportError, validateTranscript } from './import-check';
import { refuseAmplifiedImport } from './import-size';
import { objectBombRefusal } from './json-shape';
import { checkDeclaredSizes, decodeImportText, inflateEntry, zipEntries, type InflationBudget } from './import-zip';
import { boundedTitle } from '../../../src-shared/title-limit';

export type ImportSource = 'anybrain' | 'chatgpt' | 'claude';

/** The converters of other apps' exports; one without a converter here is refused with a sentence saying so. */
export interface ForeignConverters {
  readonly chatgpt: ForeignConverter;
  readonly claude: ForeignConverter;
}

/** A file read and converted but not yet checked: `checkImportDocument` checks each transcript. */
export interface ImportFile {
  readonly source: ImportSource;
  readonly transcripts: readonly unknown[];
  readonly skipped: readonly { readonly title: string; readonly reason: string }[];
}

/**
 * The files of ChatGPT's export zip that hold the conversations, beside chat.html, user.json and the images: one
 * `conversations.json`, or in exports since early 2026 shards `conversations-000.json`, `conversations-001.json`, …,
 * each an array of conversations.
 */
const CONVERSATIONS_ENTRY = /(?:^|\/)conversations(?:-(\d+))?\.json$/;

/** macOS archivers add `__MACOSX/…/._name` resource forks beside each file: never the conversations. */
function isConversationsEntry(name: string): boolean {
  return CONVERSATIONS_ENTRY.test(name) && !name.startsWith('__MACOSX/') && !name.split('/').at(-1)!.startsWith('._');
}

function parseJson(text: string, what: string): unknown {
  const tooMany = objectBombRefusal(text, what);
  if (tooMany !== null) throw new TranscriptImportError(tooMany);
  try {
    // A byte order mark is not JSON, and some editors write one.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new TranscriptImportError(`${what} is not JSON (${error instanceof Error ? error.message : String(error)}). Nothing was imported.`);
  }
}

/**
 * The conversations of ChatGPT's export zip, from the shallowest folder holding them: one conversations.json, or its
 * shards in order joined into one array. Only those entries are inflated, under the limits of import-zip.ts.
 */
/** A file's parsed JSON, and how many bytes of JSON it was (inflated, for a zip). */
interface ReadDocument {
  readonly document: unknown;
  readonly jsonBytes: number;
}

function conversationsFromZip(bytes: Uint8Array, onInflated?: (inflated: number) => void): ReadDocument {
  const folderOf = (name: string): string => name.slice(0, name.lastIndexOf('/') + 1);
  const entries = zipEntries(bytes).filter((entry) => isConversationsEntry(entry.name));
  const folder = entries
    .map((entry) => folderOf(entry.name))
    .sort((left, right) => left.split('/').length - right.split('/').length || left.localeCompare(right))[0];
  if (folder === undefined) throw new TranscriptImportError('The zip holds no conversations.json, so it is not a ChatGPT data export. Nothing was imported.');
  const inFolder = entries.filter((entry) => folderOf(entry.name) === folder).sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  checkDeclaredSizes(inFolder);
  const budget: InflationBudget = { inflated: 0, ...(onInflated === undefined ? {} : { onInflated }) };
  const documents = inFolder.map((entry) => parseJson(decodeImportText(inflateEntry(bytes, entry, budget), entry.name), `${entry.name} in the zip`));
  if (documents.length === 1) return { document: documents[0], jsonBytes: budget.inflated };
  const joined = documents.flatMap((document, index) => {
    if (!Array.isArray(document)) throw new TranscriptImportError(`${inFolder[index]!.name} in the zip is not a list of conversations. Nothing was imported.`);
    return document as unknown[];
  });
  return { document: joined, jsonBytes: budget.inflated };
}

/** Reads a file (its bytes, or its text) and converts what it holds; throws `TranscriptImportError` when it cannot. */
export function readImportFile(file: Uint8Array | string, converters: ForeignConverters, onInflated?: (inflated: number) => void): ImportFile {
  const { document, jsonBytes }: ReadDocument =
    typeof file !== 'string' && startsLikeZip(file)
      ? conversationsFromZip(file, onInflated)
      : {
          document: parseJson(typeof file === 'string' ? file : decodeImportText(file, 'The file'), 'The file'),
          jsonBytes: typeof file === 'string' ? Buffer.byteLength(file) : file.length,
        };
  if (!Array.isArray(document)) return { source: 'anybrain', transcripts: [document], skipped: [] };
  if (looksLikeChatGptExport(document)) return convertForeign('chatgpt', converters.chatgpt, document, jsonBytes);
  if (isClaudeExport(document)) return convertForeign('claude', converters.claude, document, jsonBytes);
  throw new TranscriptImportError(
    'The file is neither an Anybrain transcript nor a ChatGPT or Claude data export (conversations.json). Nothing was imported.',
  );
}

function convertForeign(source: ImportSource, converter: ForeignConverter, document: unknown, jsonBytes: number): ImportFile {
  try {
    const { transcripts, skipped } = converter(document);
    refuseAmplifiedImport(transcripts, jsonBytes);
    return { source, transcripts, skipped };
  } catch (error) {
    if (error instanceof ForeignImportError) throw new TranscriptImportError(error.message);
    throw error;
  }
}

/** Checks one converted document; a fault names the conversation, then its first bad path. */
export function checkImportDocument(file: ImportFile, document: unknown, index: number): TranscriptV1 {
  if (file.source === 'anybrain') return validateTranscript(document);
  try {
    return validateTranscript(document);
  } catch (error) {
    if (!(error instanceof TranscriptImportError)) throw error;
    const title = (document as { conversation?: { title?: unknown } } | null)?.conversation?.title;
    throw new TranscriptImportError(`Conversation ${index + 1}${typeof title === 'string' ? ` ("${boundedTitle(title)}")` : ''}: ${error.message}`);
  }
}

