import { describe, expect, it } from 'vitest';
import { addServerConfig, admitServer, commandProblem, parseServerConfig, parseServerConfigs, type McpServerConfig } from './config';

const files: McpServerConfig = {
  id: 'files',
  label: 'Files',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'],
  env: { LOG_LEVEL: 'info' },
  enabled: true,
  origin: 'user',
};

describe('admitServer', () => {
  it('keeps the enabled flag of a server the user added', () => {
    expect(admitServer(files, 'user')).toEqual(files);
    expect(admitServer({ ...files, enabled: false }, 'user').enabled).toBe(false);
  });

  it('forces a server added any other way to disabled, and records its origin', () => {
    const admitted = admitServer(files, 'import');
    expect(admitted).toEqual({ ...files, enabled: false, origin: 'import' });
  });

  it('takes the origin from the path, not from the config', () => {
    expect(admitServer({ ...files, origin: 'user' }, 'import')).toMatchObject({ enabled: false, origin: 'import' });
  });

  it('copies the arrays it returns', () => {
    const admitted = admitServer(files, 'user');
    expect(admitted.args).not.toBe(files.args);
    expect(admitted.env).not.toBe(files.env);
  });
});

describe('commandProblem', () => {
  it('accepts a program with an argument vector', () => {
    expect(commandProblem('npx', ['-y', 'pkg'])).toBeNull();
    expect(commandProblem('/usr/local/bin/server', [])).toBeNull();
    expect(commandProblem('C:\\Program Files (x86)\\Server\\server.exe', [])).toBeNull();
  });

  it('accepts a path with spaces and no arguments', () => {
    expect(commandProblem('/Applications/My Tools/server', [])).toBeNull();
  });

  it('refuses a whole command line and shows how to split it', () => {
    const problem = commandProblem('npx -y @modelcontextprotocol/server-filesystem /tmp', []);
    expect(problem).toContain('split it');
    expect(problem).toContain('command "npx" and args ["-y","@modelcontextprotocol/server-filesystem","/tmp"]');
  });

  it('refuses shell metacharacters in a spaced command without arguments', () => {
    expect(commandProblem('/opt/server --root "$HOME"', [])).toContain('split it');
    expect(commandProblem('/opt/bin/server | tee log', [])).toContain('split it');
  });

  it('refuses shell operators even with arguments', () => {
    expect(commandProblem('server;rm', ['x'])).toContain('shell operators');
    expect(commandProblem('$(whoami)', ['x'])).toContain('shell operators');
  });

  it('refuses an empty or padded command', () => {
    expect(commandProblem('', [])).toContain('empty');
    expect(commandProblem(' npx', ['x'])).toContain('spaces');
  });
});

describe('parseServerConfig', () => {
  it('accepts a valid config', () => {
    expect(parseServerConfig(files)).toEqual({ ok: true, value: files });
  });

  it.each([
    [{ id: 'Files' }, 'id:'],
    [{ id: '-files' }, 'id:'],
    [{ id: 'a'.repeat(32) }, 'id:'],
    [{ label: '  ' }, 'label:'],
    [{ env: { 'BAD NAME': 'x' } }, 'env'],
    [{ args: 'x' }, 'args:'],
    [{ origin: 'web' }, 'origin:'],
    [{ command: 'uvx mcp-server-git', args: [] }, 'command:'],
  ])('names the first bad field of %j', (change, path) => {
    const parsed = parseServerConfig({ ...files, ...change });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.startsWith(path)).toBe(true);
  });

  it('refuses two servers with one id', () => {
    const parsed = parseServerConfigs([files, { ...files, label: 'Other' }]);
    expect(parsed).toEqual({ ok: false, problem: '[1].id: Two servers have the id "files".' });
  });
});

describe('addServerConfig', () => {
  it('adds an imported server disabled', () => {
    const added = addServerConfig([], { ...files, origin: 'user' }, 'import');
    expect(added).toEqual({ ok: true, value: [{ ...files, enabled: false, origin: 'import' }] });
  });

  it('refuses an id already taken', () => {
    expect(addServerConfig([files], files, 'user')).toEqual({ ok: false, problem: 'id: A server with the id "files" already exists.' });
  });

  it('refuses a shell string', () => {
    const added = addServerConfig([], { ...files, command: 'npx -y server', args: [] }, 'user');
    expect(added.ok).toBe(false);
  });
});
