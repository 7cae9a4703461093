/**
 * `anybrain search "terms" [--json] [--limit N]`: full-text search over every conversation's words and titles, best
 * hits first, through the Api like every command.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SearchHitView, SearchResultsView } from '../../src-shared/api';
import { BRAINS } from '../../src-shared/brains';
import { DEFAULT_SEARCH_LIMIT, snippetSegments } from '../../src-shared/search';
import type { Core } from '../core/core-types';
import { call, type Output } from './commands';

export interface SearchOptions {
  readonly query: string;
  readonly json?: boolean;
  readonly limit?: number;
  /** Bold for the matched words (a terminal); otherwise they are put in [brackets]. */
  readonly color?: boolean;
  /** Between looks at how far indexing older messages has come. */
  readonly pollMs?: number;
}

/** One hit as `--json` prints it: snake_case like `list --json`, the snippet as text with its matches as offsets. */
export interface SearchHitJson {
  readonly conversation_id: string;
  readonly conversation_title: string;
  /** Null for a conversation whose title matches. */
  readonly message_id: string | null;
  readonly role: string | null;
  readonly brain: string | null;
  readonly snippet: string;
  /** [start, end) offsets into `snippet`, in UTF-16 code units (JavaScript string indices), of each matched part. */
  readonly matches: ReadonlyArray<readonly [number, number]>;
  readonly created_at: string;
}

export function toSearchHitJson(hit: SearchHitView): SearchHitJson {
  let snippet = '';
  const matches: Array<[number, number]> = [];
  for (const segment of snippetSegments(hit.snippet)) {
    if (segment.marked) matches.push([snippet.length, snippet.length + segment.text.length]);
    snippet += segment.text;
  }
  return {
    conversation_id: hit.conversationId,
    conversation_title: hit.conversationTitle,
    message_id: hit.messageId,
    role: hit.role,
    brain: hit.brain,
    snippet,
    matches,
    created_at: hit.createdAt,
  };
}

/**
 * Text from the store as a terminal line: model output is untrusted, and a control character (an ANSI escape, a
 * carriage return) written raw would let it restyle or rewrite the terminal. Line breaks become spaces.
 */
export function terminalText(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(/\p{Cc}/gu, '\uFFFD');
}

function speaker(hit: SearchHitView): string {
  switch (hit.role) {
    case null:
      return 'title';
    case 'user':
      return 'You';
    case 'assistant':
      return hit.brain === null ? 'Assistant' : BRAINS[hit.brain].label;
    case 'system':
      return 'System';
    default: {
      const unknownRole: never = hit.role;
      return unknownRole;
    }
  }
}

export function formatSearchHit(hit: SearchHitView, color: boolean): string {
  const snippet = snippetSegments(hit.snippet)
    .map((segment) => {
      const text = terminalText(segment.text);
      if (!segment.marked) return text;
      return color ? `\u001b[1m${text}\u001b[22m` : `[${text}]`;
    })
    .join('');
  const where = hit.messageId === null ? hit.conversationId : `${hit.conversationId} ${hit.messageId}`;
  return `${terminalText(hit.conversationTitle)}  (${where})\n  ${speaker(hit)}: ${snippet}\n`;
}

/** Searches once the index covers every message (a data folder upgraded just now is indexed first, with progress). */
export async function searchCommand(core: Core, output: Output, options: SearchOptions): Promise<number> {
  const input = { query: options.query, limit: options.limit ?? DEFAULT_SEARCH_LIMIT };
  let results: SearchResultsView = await call(core, 'searchMessages', input);
  let shownPercent: number | null = null;
  while (results.indexing !== null) {
    if (results.indexing.percent !== shownPercent) {
      shownPercent = results.indexing.percent;
      output.stderr(`Indexing older messages for search: ${shownPercent}%\n`);
    }
    await sleep(options.pollMs ?? 200);
    results = await call(core, 'searchMessages', input);
  }
  if (options.json) {
    output.stdout(`${JSON.stringify(results.hits.map(toSearchHitJson), null, 2)}\n`);
    return 0;
  }
  if (results.hits.length === 0) {
    output.stderr('No conversation or message matches.\n');
    return 0;
  }
  for (const hit of results.hits) output.stdout(formatSearchHit(hit, options.color === true));
  return 0;
}
