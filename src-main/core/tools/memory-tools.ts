/**
 * Built-in memory tools: a brain searches the user's memories and saves new ones. Both write plain text a model reads
 * back; every refusal is a tool error (isError) with a message that says how to call the tool correctly.
 */
import { newId } from '../store/clock';
import { findMemoryByText, insertMemory, searchMemories } from '../store/memories';
import type { AppDatabase } from '../store/open';
import type { ToolDefinition, ToolResult } from './catalogue';
import { formatCount } from '../../../src-shared/format-count';

export const MEMORY_SEARCH_DEFAULT_LIMIT = 10;
export const MEMORY_SEARCH_MAX_LIMIT = 20;
/** Counted in Unicode code points, so a Hangul or emoji memory gets the same room as an English one. */
export const MEMORY_MAX_CHARS = 4_000;

function toolError(output: string): ToolResult {
  return { output, isError: true };
}

/** A message naming the first field the schema does not declare, or null when there is none. */
function unknownField(input: Record<string, unknown>, allowed: readonly string[]): string | null {
  const extra = Object.keys(input).find((key) => !allowed.includes(key));
  return extra === undefined ? null : `Unknown field "${extra}". Allowed: ${allowed.join(', ')}.`;
}

/** One numbered entry; lines after the first are indented so a multi-line memory stays under its number. */
function formatEntry(position: number, id: string, text: string): string {
  const prefix = `${position}. `;
  const indent = ' '.repeat(prefix.length);
  return `${prefix}[${id}] ${text.split('\n').join(`\n${indent}`)}`;
}

export function createMemoryTools(db: AppDatabase): ToolDefinition[] {
  const memorySearch: ToolDefinition = {
    name: 'memory_search',
    description:
      "Search the user's saved memories (facts and preferences kept across conversations) by words. Returns a " +
      'numbered list of matching memories with their ids, best match first.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for, e.g. "home city" or "coffee preference".' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MEMORY_SEARCH_MAX_LIMIT,
          description: `How many memories to return at most. Default: ${MEMORY_SEARCH_DEFAULT_LIMIT}.`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    server: null,
    async execute(input) {
      const unknown = unknownField(input, ['query', 'limit']);
      if (unknown !== null) return toolError(unknown);
      if (typeof input.query !== 'string' || input.query.trim() === '') {
        return toolError('"query" must be a non-empty string of words to search for.');
      }
      // null counts as omitted: strict structured-output modes send null for an optional field.
      const limit = input.limit ?? MEMORY_SEARCH_DEFAULT_LIMIT;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MEMORY_SEARCH_MAX_LIMIT) {
        return toolError(`"limit" must be a whole number from 1 to ${MEMORY_SEARCH_MAX_LIMIT}.`);
      }
      const query = input.query.trim();
      const matches = searchMemories(db, query, limit);
      if (matches.length === 0) return { output: `No memories match "${query}".`, isError: false };
      return {
        output: matches.map((match, index) => formatEntry(index + 1, match.id, match.text)).join('\n'),
        isError: false,
      };
    },
  };

  const memorySave: ToolDefinition = {
    name: 'memory_save',
    description:
      'Save a short fact or preference the user wants remembered in later conversations, written as a standalone ' +
      `sentence (e.g. "The user lives in Seoul."). At most ${formatCount(MEMORY_MAX_CHARS)} characters.`,
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', minLength: 1, maxLength: MEMORY_MAX_CHARS, description: 'The memory, as one self-contained statement.' },
      },
      required: ['text'],
      additionalProperties: false,
    },
    server: null,
    async execute(input, context) {
      const unknown = unknownField(input, ['text']);
      if (unknown !== null) return toolError(unknown);
      if (typeof input.text !== 'string') return toolError('"text" must be a string: the memory to save.');
      const text = input.text.trim();
      if (text === '') return toolError('"text" is empty. Give the memory to save as one self-contained statement.');
      const length = [...text].length;
      if (length > MEMORY_MAX_CHARS) {
        return toolError(
          `"text" is ${formatCount(length)} characters; a memory holds at most ` +
            `${formatCount(MEMORY_MAX_CHARS)}. Save a shorter summary.`,
        );
      }
      const existing = findMemoryByText(db, text);
      if (existing !== null) return { output: `Already saved as memory ${existing.id}.`, isError: false };
      const saved = insertMemory(db, { id: newId(), text, now: context.now().toISOString() });
      return { output: `Saved memory ${saved.id}.`, isError: false };
    },
  };

  return [memorySearch, memorySave];
}
