import { describe, expect, it } from 'vitest';
import { bareToolName, policyKeyOf, sameToolKey, toolKeyOfWireName, toolLabel, wireNameOf } from './tool-key';

describe('tool keys', () => {
  it('spells a built-in tool by its bare name everywhere', () => {
    const key = { server: null, tool: 'read_file' };
    expect(wireNameOf(key)).toBe('read_file');
    expect(policyKeyOf(key)).toBe('read_file');
    expect(toolLabel(key)).toBe('read_file');
    expect(toolKeyOfWireName('read_file')).toEqual(key);
  });

  it('spells an MCP tool as server__tool, server/tool and server · tool', () => {
    const key = { server: 'files', tool: 'read_file' };
    expect(wireNameOf(key)).toBe('files__read_file');
    expect(policyKeyOf(key)).toBe('files/read_file');
    expect(toolLabel(key)).toBe('files · read_file');
    expect(toolKeyOfWireName('files__read_file')).toEqual(key);
  });

  it('reads older names with more namespace as their last two segments', () => {
    expect(toolKeyOfWireName('mcp__files__read_file')).toEqual({ server: 'files', tool: 'read_file' });
    expect(bareToolName('mcp__files__read_file')).toBe('read_file');
  });

  it('tells a server tool from the built-in of the same bare name', () => {
    expect(sameToolKey(toolKeyOfWireName('files__read_file'), { server: null, tool: 'read_file' })).toBe(false);
    expect(sameToolKey(toolKeyOfWireName('files__read_file'), { server: 'other', tool: 'read_file' })).toBe(false);
    expect(sameToolKey(toolKeyOfWireName('files__read_file'), { server: 'files', tool: 'read_file' })).toBe(true);
    expect(sameToolKey(toolKeyOfWireName('read_file'), { server: null, tool: 'read_file' })).toBe(true);
  });
});
