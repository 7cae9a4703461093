/**
 * What a file to import is, told by its content and never by its name: a zip (ChatGPT sends its export as one), an
 * Anybrain transcript v1, ChatGPT's `conversations.json` or Claude's. Every conversation it holds becomes a transcript
 * v1 document checked whole here, before anything is written (`writeTranscripts` then writes them in one transaction).
 */
import { unzipSync } from 'fflate';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { startsLikeZip } from '../../../src-shared/zip-signature';
import { looksLikeChatGptExport } from './foreign/chatgpt';
import { isClaudeExport } from './foreign/claude';
import { ForeignImportError, type ForeignConverter } from './foreign/types';
import type { AppDatabase } from '../store/open';
import { TranscriptImportError, validateTranscript, writeTranscripts } from './import';
import { refuseAmplifiedImport } from './import-size';

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
  try {
    // A byte order mark is not JSON, and some editors write one.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new TranscriptImportError(`${what} is not JSON (${error instanceof Error ? error.message : String(error)}). Nothing was imported.`);
  }
}

/** A file's parsed JSON, and how many bytes of JSON it was (inflated, for a zip). */
interface ReadDocument {
  readonly document: unknown;
  readonly jsonBytes: number;
}

/**
 * The conversations of ChatGPT's export zip, from the shallowest folder holding them: one conversations.json, or its
 * shards in order joined into one array. The zip's other files are never inflated.
 */
function conversationsFromZip(bytes: Uint8Array): ReadDocument {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (file) => isConversationsEntry(file.name) });
  } catch (error) {
    throw new TranscriptImportError(`The zip cannot be read (${error instanceof Error ? error.message : String(error)}). Nothing was imported.`);
  }
  const folderOf = (name: string): string => name.slice(0, name.lastIndexOf('/') + 1);
  const names = Object.keys(entries);
  const folder = names.map(folderOf).sort((left, right) => left.split('/').length - right.split('/').length || left.localeCompare(right))[0];
  if (folder === undefined) throw new TranscriptImportError('The zip holds no conversations.json, so it is not a ChatGPT data export. Nothing was imported.');
  const inFolder = names.filter((name) => folderOf(name) === folder).sort();
  const documents = inFolder.map((name) => parseJson(new TextDecoder().decode(entries[name]), `${name} in the zip`));
  const jsonBytes = inFolder.reduce((sum, name) => sum + entries[name]!.length, 0);
  if (documents.length === 1) return { document: documents[0], jsonBytes };
  const joined = documents.flatMap((document, index) => {
    if (!Array.isArray(document)) throw new TranscriptImportError(`${inFolder[index]} in the zip is not a list of conversations. Nothing was imported.`);
    return document as unknown[];
  });
  return { document: joined, jsonBytes };
}

function readDocument(file: Uint8Array | string): ReadDocument {
  if (typeof file !== 'string' && startsLikeZip(file)) return conversationsFromZip(file);
  const text = typeof file === 'string' ? file : new TextDecoder().decode(file);
  return { document: parseJson(text, 'The file'), jsonBytes: typeof file === 'string' ? Buffer.byteLength(file) : file.length };
}

/** Reads a file (its bytes, or its text) and converts what it holds; throws `TranscriptImportError` when it cannot. */
export function readImportFile(file: Uint8Array | string, converters: ForeignConverters): ImportFile {
  const { document, jsonBytes } = readDocument(file);
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
    throw new TranscriptImportError(`Conversation ${index + 1}${typeof title === 'string' ? ` ("${title}")` : ''}: ${error.message}`);
  }
}

/** What an import wrote, and what it left out and why. */
export interface ImportOutcome {
  readonly source: ImportSource;
  readonly conversationIds: readonly string[];
  readonly messages: number;
  readonly skipped: readonly { readonly title: string; readonly reason: string }[];
}

/** How long checking runs before it reports progress and lets the process answer other work. */
const PROGRESS_INTERVAL_MS = 50;

/**
 * Reads, converts and checks every conversation of a file, then writes them all in one transaction. Checking yields
 * to the event loop every `PROGRESS_INTERVAL_MS` so progress reaches the window; the write itself is one synchronous
 * transaction, since another writer's rows must never land inside it.
 */
export async function importFile(
  db: AppDatabase,
  file: Uint8Array | string,
  converters: ForeignConverters,
  onProgress: (done: number, total: number) => void,
  dataDir?: string,
): Promise<ImportOutcome> {
  const read = readImportFile(file, converters);
  const total = read.transcripts.length;
  const checked: TranscriptV1[] = [];
  let lastReport = Date.now();
  for (const [index, document] of read.transcripts.entries()) {
    checked.push(checkImportDocument(read, document, index));
    if (Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
      onProgress(index + 1, total);
      await new Promise((resolve) => setImmediate(resolve));
      lastReport = Date.now();
    }
  }
  const conversationIds = writeTranscripts(db, checked, dataDir);
  onProgress(total, total);
  return {
    source: read.source,
    conversationIds,
    messages: checked.reduce((sum, transcript) => sum + transcript.messages.length, 0),
    skipped: read.skipped,
  };
}
