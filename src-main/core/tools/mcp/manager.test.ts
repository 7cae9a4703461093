import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bareToolName } from '../../replay/call-shaping';
import type { ToolContext, ToolDefinition } from '../catalogue';
import { McpManager } from './manager';
import { everythingServer, fakeServer, filesystemServer, isAlive } from './testing/servers';
import { WIRE_NAME_PATTERN } from './tool-names';

let folder: string;
const managers: McpManager[] = [];

beforeAll(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'anybrain-mcp-manager-')));
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.dispose()));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

function newManager(toolTimeoutMs = 30_000): McpManager {
  const manager = new McpManager({ listTimeoutMs: 60_000, hostOptions: { toolTimeoutMs, restartBackoffMs: 20, closeGraceMs: 300, killGraceMs: 1_000 } });
  managers.push(manager);
  return manager;
}

const context = (signal = new AbortController().signal): ToolContext => ({ signal, now: () => new Date('2026-01-01T00:00:00Z') });

function named(definitions: readonly ToolDefinition[], name: string): ToolDefinition {
  const definition = definitions.find((entry) => entry.name === name);
  if (!definition) throw new Error(`No tool ${name} among ${definitions.map((entry) => entry.name).join(', ')}`);
  return definition;
}

describe('McpManager with @modelcontextprotocol/server-everything', () => {
  it('starts lazily and offers namespaced tools that call the server', async () => {
    const manager = newManager();
    await manager.setConfigs([everythingServer()]);
    const host = manager.host('everything')!;
    expect(host.status()).toBe('stopped');
    expect(host.processId).toBeNull();

    const definitions = await manager.toolDefinitions();
    expect(host.status()).toBe('running');
    const names = definitions.map((definition) => definition.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__trigger-long-running-operation']));
    for (const definition of definitions) {
      expect(definition.name).toMatch(WIRE_NAME_PATTERN);
      expect(definition.name.startsWith('everything__')).toBe(true);
      expect(definition.server).toBe('everything');
      expect(definition.description.startsWith('Everything: ')).toBe(true);
      expect(definition.inputSchema.type).toBe('object');
    }
    const echo = named(definitions, 'everything__echo');
    expect(bareToolName(echo.name)).toBe('echo');
    expect(echo.description).toBe('Everything: Echoes back the input string');
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });

    expect(await echo.execute({ message: 'hello, world' }, context())).toEqual({ output: 'Echo: hello, world', isError: false });
    expect(await named(definitions, 'everything__get-sum').execute({ a: 2, b: 3.5 }, context())).toEqual({
      output: 'The sum of 2 and 3.5 is 5.5.',
      isError: false,
    });
    const image = await named(definitions, 'everything__get-tiny-image').execute({}, context());
    expect(image.output).toBe("Here's the image you requested:\nThe image above is the MCP logo.");
    expect(image.images?.map((entry) => entry.mimeType)).toEqual(['image/png']);
    expect(manager.statuses()).toEqual([{ id: 'everything', label: 'Everything', enabled: true, status: 'running', lastError: null, toolCount: definitions.length }]);
  });

  it('returns an error result for a bad argument', async () => {
    const manager = newManager();
    await manager.setConfigs([everythingServer()]);
    const echo = named(await manager.toolDefinitions(), 'everything__echo');
    const result = await echo.execute({ message: 42 }, context());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/Input validation error.*message/);
  });

  it('times out the long-running operation', async () => {
    const manager = newManager(500);
    await manager.setConfigs([everythingServer()]);
    const slow = named(await manager.toolDefinitions(), 'everything__trigger-long-running-operation');
    const result = await slow.execute({ duration: 20, steps: 2 }, context());
    expect(result).toEqual({
      output: 'The MCP server "Everything" did not answer trigger-long-running-operation within 0.5 s; the call was cancelled.',
      isError: true,
    });
  });

  it('leaves no process behind when disposed', async () => {
    const manager = newManager();
    await manager.setConfigs([everythingServer()]);
    await manager.toolDefinitions();
    const pid = manager.host('everything')!.processId!;
    expect(isAlive(pid)).toBe(true);
    await manager.dispose();
    expect(isAlive(pid)).toBe(false);
    await expect(manager.setConfigs([])).rejects.toThrow(/shut down/);
  });
});

describe('McpManager with several servers', () => {
  it('skips a server that fails, reports it, and never starts a disabled one', async () => {
    const marker = join(folder, 'disabled-started.txt');
    const manager = newManager();
    await manager.setConfigs([
      fakeServer(['--exit-at-start'], { id: 'broken', label: 'Broken' }),
      fakeServer(['--marker', marker], { id: 'off', label: 'Off', enabled: false }),
      fakeServer([], { id: 'fake', label: 'Fake' }),
    ]);
    expect(manager.host('off')).toBeUndefined();

    const definitions = await manager.toolDefinitions();
    expect(new Set(definitions.map((definition) => definition.server))).toEqual(new Set(['fake']));
    expect(existsSync(marker)).toBe(false);
    const statuses = manager.statuses();
    expect(statuses.map(({ id, status, enabled }) => ({ id, status, enabled }))).toEqual([
      { id: 'broken', status: 'failed', enabled: true },
      { id: 'off', status: 'stopped', enabled: false },
      { id: 'fake', status: 'running', enabled: true },
    ]);
    expect(statuses[0]!.lastError).toContain('The MCP server "Broken" exited while starting');
    expect(statuses[1]!.lastError).toBeNull();
  });

  it('keeps unchanged servers running and stops removed, disabled and changed ones', async () => {
    const manager = newManager();
    const keep = fakeServer([], { id: 'keep', label: 'Keep' });
    const change = fakeServer([], { id: 'change', label: 'Change' });
    const disable = fakeServer([], { id: 'disable', label: 'Disable' });
    const remove = fakeServer([], { id: 'remove', label: 'Remove' });
    await manager.setConfigs([keep, change, disable, remove]);
    await manager.toolDefinitions();
    const pids = Object.fromEntries(['keep', 'change', 'disable', 'remove'].map((id) => [id, manager.host(id)!.processId!]));
    const keepEcho = named(await manager.toolDefinitions(), 'keep__echo');

    await manager.setConfigs([keep, { ...change, env: { CHANGED: '1' } }, { ...disable, enabled: false }]);
    expect(isAlive(pids.keep!)).toBe(true);
    expect(manager.host('keep')!.processId).toBe(pids.keep);
    for (const id of ['change', 'disable', 'remove']) expect(isAlive(pids[id]!)).toBe(false);
    expect(manager.host('disable')).toBeUndefined();
    expect(manager.host('remove')).toBeUndefined();
    expect(manager.host('change')!.status()).toBe('stopped');
    expect(await keepEcho.execute({ message: 'same process' }, context())).toEqual({ output: 'same process', isError: false });

    const removedEcho = named(await manager.toolDefinitions(), 'change__echo');
    await manager.setConfigs([keep]);
    expect(await removedEcho.execute({ message: 'x' }, context())).toEqual({ output: 'The MCP server "Change" is no longer enabled.', isError: true });
  });

  it('maps a tool name the wires refuse and calls the tool by its own name', async () => {
    const manager = newManager();
    await manager.setConfigs([fakeServer(['--tool-name', 'notes.search'])]);
    const definition = named(await manager.toolDefinitions(), 'fake__notes_search');
    expect(definition.description).toBe('Fake: notes.search');
    expect(await definition.execute({ message: 'found' }, context())).toEqual({ output: 'found', isError: false });
  });

  it('refuses an invalid list and keeps the servers it had', async () => {
    const manager = newManager();
    await manager.setConfigs([fakeServer()]);
    await expect(manager.setConfigs([fakeServer(), fakeServer()])).rejects.toThrow('The MCP server list is not valid: [1].id: Two servers have the id "fake".');
    expect(manager.host('fake')).toBeDefined();
  });
});

describe('McpManager with @modelcontextprotocol/server-filesystem', () => {
  it('lists a directory and reads a file under its allowed root', async () => {
    writeFileSync(join(folder, 'note.txt'), 'remember the milk\n');
    const manager = newManager();
    await manager.setConfigs([filesystemServer(folder)]);
    const definitions = await manager.toolDefinitions();
    expect(definitions.map((definition) => definition.name)).toEqual(expect.arrayContaining(['files__list_directory', 'files__read_text_file']));

    const listing = await named(definitions, 'files__list_directory').execute({ path: folder }, context());
    expect(listing.isError).toBe(false);
    expect(listing.output.split('\n')).toContain('[FILE] note.txt');
    const read = await named(definitions, 'files__read_text_file').execute({ path: join(folder, 'note.txt') }, context());
    expect(read).toEqual({ output: 'remember the milk\n', isError: false });
    const outside = await named(definitions, 'files__read_text_file').execute({ path: '/etc/hostname' }, context());
    expect(outside.isError).toBe(true);
  });
});

describe('McpManager with a server that never lists its tools', () => {
  it('waits for it once, then goes on without it, says so once, and no longer once it is disabled', async () => {
    const told: string[] = [];
    const manager = new McpManager({
      listTimeoutMs: 300,
      hostOptions: { toolTimeoutMs: 60_000, closeGraceMs: 300, killGraceMs: 1_000 },
      onSilence: ({ id, label }, silent, waitedMs) => told.push(`${id} (${label}): ${silent ? `silent after ${waitedMs} ms` : 'answers'}`),
    });
    managers.push(manager);
    const well = fakeServer([], { id: 'well', label: 'Well' });
    // Started and listed first, so its answer never races the short wait below: a server's first start can take
    // longer than that wait on a busy machine (it is then said to be silent, and to answer once it lists).
    await manager.setConfigs([well]);
    await expect.poll(async () => (await manager.toolDefinitions()).map((definition) => definition.name), { timeout: 30_000 }).toContain('well__echo');
    told.length = 0;
    await manager.setConfigs([fakeServer(['--silent-list']), well]);
    // The well server's tools come; the silent one's do not, and it is said to be silent once.
    expect((await manager.toolDefinitions()).map((definition) => definition.name)).toContain('well__echo');
    expect(told).toEqual(['fake (Fake): silent after 300 ms']);
    // A later turn does not wait for it again: only the well server is asked, and answers.
    const later = await Promise.race([manager.toolDefinitions(), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 250))]);
    expect(later === 'waited' ? later : later.map((definition) => definition.name).filter((name) => name.startsWith('fake__'))).toEqual([]);
    expect(told).toHaveLength(1);
    // Disabled, it no longer counts as silent.
    await manager.setConfigs([{ ...fakeServer(['--silent-list']), enabled: false }, well]);
    expect(told).toEqual(['fake (Fake): silent after 300 ms', 'fake (Fake): answers']);
  });
});

describe('McpManager with a server that restarts and is slow to list again', () => {
  it("keeps offering the tools it last listed, so the request's declarations stay as they were", async () => {
    const stuck = join(folder, `stuck-${Date.now()}`);
    const manager = new McpManager({ listTimeoutMs: 300, hostOptions: { toolTimeoutMs: 60_000, restartBackoffMs: 20, closeGraceMs: 300, killGraceMs: 1_000 } });
    managers.push(manager);
    await manager.setConfigs([fakeServer(['--silent-list-if', stuck])]);
    const names = async () => (await manager.toolDefinitions()).map((definition) => definition.name);
    await expect.poll(names, { timeout: 30_000 }).toContain('fake__echo');
    const listed = await names();

    // From now on a new process of the server never answers its listing; this one crashes, and the host restarts it.
    writeFileSync(stuck, '');
    const definitions = await manager.toolDefinitions();
    const crashed = await named(definitions, 'fake__crash').execute({ ms: 0 }, context());
    expect(crashed.isError).toBe(true);
    expect(await names()).toEqual(listed);
    // The kept tools call the restarted server.
    expect(await named(await manager.toolDefinitions(), 'fake__echo').execute({ message: 'still here' }, context())).toEqual({ output: 'still here', isError: false });

    // Disabled, it offers nothing.
    await manager.setConfigs([{ ...fakeServer(['--silent-list-if', stuck]), enabled: false }]);
    expect(await names()).toEqual([]);
  });
});

describe('McpManager declaring the tools of a server that lists them in another order', () => {
  it('declares them in the order of their names, whatever order the server lists them in', async () => {
    const manager = new McpManager({ hostOptions: { toolTimeoutMs: 60_000, restartBackoffMs: 20, closeGraceMs: 300, killGraceMs: 1_000 } });
    managers.push(manager);
    const expected = ['fake__crash', 'fake__echo', 'fake__env', 'fake__fail', 'fake__mixed', 'fake__pid', 'fake__sleep'];
    for (const args of [[], ['--reverse-list']]) {
      await manager.setConfigs([fakeServer(args)]);
      await expect.poll(async () => (await manager.toolDefinitions()).map((definition) => definition.name), { timeout: 30_000 }).toEqual(expected);
    }
  });
});

