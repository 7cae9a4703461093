import { describe, expect, it } from 'vitest';
import { bareToolName } from '../../replay/call-shaping';
import { namespacedToolName, namespaceTools, WIRE_NAME_PATTERN } from './tool-names';

describe('namespacedToolName', () => {
  it('joins the server id and the tool name with __', () => {
    expect(namespacedToolName('files', 'read_file')).toBe('files__read_file');
    expect(namespacedToolName('everything', 'get-sum')).toBe('everything__get-sum');
  });

  it('gives back the tool name through bareToolName when the name is wire-safe', () => {
    for (const tool of ['read_file', 'get-sum', '_private', 'trailing_', 'x', 'A1-b_2']) {
      const name = namespacedToolName('my-server', tool);
      expect(name).toMatch(WIRE_NAME_PATTERN);
      expect(bareToolName(name)).toBe(tool);
    }
  });

  it('replaces characters the wires refuse and never leaves a __ inside the tool part', () => {
    expect(namespacedToolName('git', 'git.status')).toBe('git__git_status');
    expect(namespacedToolName('git', 'a__b')).toBe('git__a_b');
    expect(namespacedToolName('git', 'ünï cödé')).toBe('git___n_c_d_');
    expect(bareToolName(namespacedToolName('git', 'ünï cödé'))).toBe('_n_c_d_');
    expect(bareToolName(namespacedToolName('git', 'a..b'))).toBe('a_b');
    expect(namespacedToolName('git', '')).toBe('git__tool');
  });

  it('cuts a long name to 64 characters with a stable hash suffix', () => {
    const serverId = 'a'.repeat(31);
    const long = 'x'.repeat(80);
    const name = namespacedToolName(serverId, long);
    expect(name.length).toBe(64);
    expect(name).toMatch(WIRE_NAME_PATTERN);
    expect(name).toMatch(/^a{31}__x+-[0-9a-f]{6}$/);
    expect(namespacedToolName(serverId, long)).toBe(name);
    expect(namespacedToolName(serverId, `${long}y`)).not.toBe(name);
  });

  it('refuses a server id that is not a slug', () => {
    expect(() => namespacedToolName('my_server', 'x')).toThrow(/not a valid MCP server id/);
  });
});

describe('namespaceTools', () => {
  it('keeps a wire-safe name and gives a hashed stand-in to a tool that would share it', () => {
    const names = namespaceTools('s', ['a_b', 'a.b', 'a:b']);
    const entries = [...names.entries()];
    expect(entries[0]).toEqual(['s__a_b', 'a_b']);
    expect(entries[1]![0]).toMatch(/^s__a_b-[0-9a-f]{6}$/);
    expect(entries[2]![0]).toMatch(/^s__a_b-[0-9a-f]{6}$/);
    expect(new Set(names.keys()).size).toBe(3);
    expect([...names.values()]).toEqual(['a_b', 'a.b', 'a:b']);
  });

  it('leaves out a duplicate tool name', () => {
    expect([...namespaceTools('s', ['echo', 'echo']).keys()]).toEqual(['s__echo']);
  });
});
