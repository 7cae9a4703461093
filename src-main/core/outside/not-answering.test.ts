import { describe, expect, it } from 'vitest';
import { NotAnswering } from './not-answering';

describe('what is not answering', () => {
  it('reports a thing once while it stays silent, again when its message changes, and once when it answers', () => {
    const lines: string[] = [];
    const lists: string[][] = [];
    let clock = Date.parse('2026-12-04T10:00:00Z');
    const notAnswering = new NotAnswering((line) => lines.push(line), () => new Date(clock));
    notAnswering.subscribe((list) => lists.push(list.map((entry) => `${entry.key}: ${entry.message} (${entry.since})`)));

    notAnswering.report('mcp:files', 'mcp-server', 'the MCP server “Files”', 'The MCP server “Files” has not listed its tools in 5 s.');
    clock += 1_000;
    notAnswering.report('mcp:files', 'mcp-server', 'the MCP server “Files”', 'The MCP server “Files” has not listed its tools in 5 s.');
    notAnswering.report('keychain', 'keychain', 'the system keychain', 'The system keychain is not answering; using the keys from the environment.');
    notAnswering.report('mcp:files', 'mcp-server', 'the MCP server “Files”', 'The MCP server “Files” has not listed its tools in 65 s.');
    notAnswering.answered('keychain');
    notAnswering.answered('keychain');

    expect(lines).toEqual([
      'Anybrain: The MCP server “Files” has not listed its tools in 5 s.',
      'Anybrain: The system keychain is not answering; using the keys from the environment.',
      'Anybrain: The MCP server “Files” has not listed its tools in 65 s.',
      'Anybrain: the system keychain answers again.',
    ]);
    expect(lists).toEqual([
      ['mcp:files: The MCP server “Files” has not listed its tools in 5 s. (2026-12-04T10:00:00.000Z)'],
      [
        'mcp:files: The MCP server “Files” has not listed its tools in 5 s. (2026-12-04T10:00:00.000Z)',
        'keychain: The system keychain is not answering; using the keys from the environment. (2026-12-04T10:00:01.000Z)',
      ],
      [
        // The same thing still silent keeps the time it stopped answering.
        'mcp:files: The MCP server “Files” has not listed its tools in 65 s. (2026-12-04T10:00:00.000Z)',
        'keychain: The system keychain is not answering; using the keys from the environment. (2026-12-04T10:00:01.000Z)',
      ],
      ['mcp:files: The MCP server “Files” has not listed its tools in 65 s. (2026-12-04T10:00:00.000Z)'],
    ]);
  });
});
