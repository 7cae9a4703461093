/**
 * A part's summary request, its body encoded to bytes a page of turns at a time. A part's transcript fills the
 * summariser's window (megabytes of text at a million tokens). Written out, escaped for JSON and encoded in one step,
 * it held the main process for 120–270 ms per part, with the SDK and fetch copying and scanning the string once more.
 * The providers send the bytes as they are (providers/encoded-body.ts).
 */
import type { BrainId, WireId } from '../../../src-shared/brains';
import { LONG_HISTORY_ROWS, nextEventLoopTurn } from '../engine/event-loop-turn';
import { bodyFields, encodeBody, type EncodedBody } from '../providers/encoded-body';
import type { ReplayTurn } from '../replay/types';
import { buildWireRequest } from '../replay/wires';
import { summaryRequestText, transcriptLines } from './summary-prompt';

export interface SummaryRequest {
  readonly brain: BrainId;
  readonly model: string;
  readonly system: string;
  readonly wordLimit: number;
  readonly maxOutputTokens: number;
  /** The summariser's window the part was measured against. */
  readonly contextWindow: number;
  readonly cacheKey: string;
}

/** The request body for summarising `transcript`, built in one step. */
export function summaryRequestBody(wire: WireId, request: SummaryRequest, transcript: string): Record<string, unknown> {
  return buildWireRequest(wire, {
    brain: request.brain,
    model: request.model,
    reasoningLevel: 'off',
    system: request.system,
    turns: [{ messageId: 'compaction', role: 'user', kind: 'chat', text: summaryRequestText(transcript, request.wordLimit), calls: [] }],
    tools: [],
    maxOutputTokens: request.maxOutputTokens,
    contextWindow: request.contextWindow,
    cacheKey: request.cacheKey,
  }).body;
}

/** Stands for the transcript while the rest of the body is built; plain ASCII, so JSON writes it unchanged. */
const TRANSCRIPT_PLACE = 'anybrain-transcript-goes-here-5d1c2e';

/**
 * The same bytes as `encodeBody(summaryRequestBody(wire, request, transcript))`, where the transcript is the turns'
 * lines: the body is built around a placeholder, and the transcript is escaped and encoded into its place a page of
 * turns at a time, with a turn of the event loop between pages.
 */
export async function encodeSummaryRequest(wire: WireId, request: SummaryRequest, turns: readonly ReplayTurn[]): Promise<EncodedBody> {
  const around = summaryRequestBody(wire, request, TRANSCRIPT_PLACE);
  const json = JSON.stringify(around);
  const fields = bodyFields(around);
  const place = json.indexOf(TRANSCRIPT_PLACE);
  if (place < 0 || json.indexOf(TRANSCRIPT_PLACE, place + 1) >= 0 || JSON.stringify(fields).includes(TRANSCRIPT_PLACE)) {
    // A wire that wrote the text anywhere but once in its messages: the body is built whole.
    return encodeBody(summaryRequestBody(wire, request, turns.map(transcriptLines).join('\n')));
  }
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [encoder.encode(json.slice(0, place))];
  for (let start = 0; start < turns.length; start += LONG_HISTORY_ROWS) {
    if (start > 0) await nextEventLoopTurn();
    const lines = turns.slice(start, start + LONG_HISTORY_ROWS).map(transcriptLines).join('\n');
    // Pages meet at a line break; each page is whole turns, so no surrogate pair is ever split between two of them.
    pieces.push(encoder.encode(JSON.stringify(start > 0 ? `\n${lines}` : lines).slice(1, -1)));
  }
  pieces.push(encoder.encode(json.slice(place + TRANSCRIPT_PLACE.length)));
  const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.length;
  }
  return { json: bytes, fields };
}
