import { describe, expect, it } from 'vitest';
import { findTool, toolKeyOf, type ToolDefinition } from './catalogue';

function tool(name: string, server: string | null): ToolDefinition {
  return { name, server, description: name, inputSchema: { type: 'object' }, execute: async () => ({ output: name, isError: false }) };
}

const builtIn = tool('read_file', null);
const onServer = tool('files__read_file', 'files');

describe('findTool', () => {
  it('finds each of two tools that share a bare name by its own wire name', () => {
    expect(findTool([onServer, builtIn], 'read_file')).toBe(builtIn);
    expect(findTool([builtIn, onServer], 'files__read_file')).toBe(onServer);
  });

  it('never runs a tool of another server, or the built-in, for a name it does not carry', () => {
    expect(findTool([onServer], 'read_file')).toBeUndefined();
    expect(findTool([builtIn], 'files__read_file')).toBeUndefined();
    expect(findTool([onServer], 'other__read_file')).toBeUndefined();
  });

  it('accepts the same tool spelled with more namespace', () => {
    expect(findTool([builtIn, onServer], 'mcp__files__read_file')).toBe(onServer);
  });

  it('keys a definition by its server and bare name', () => {
    expect(toolKeyOf(onServer)).toEqual({ server: 'files', tool: 'read_file' });
    expect(toolKeyOf(builtIn)).toEqual({ server: null, tool: 'read_file' });
  });
});
