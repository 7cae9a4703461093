import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpServerView } from '../../src-shared/api';
import { DATABASE_FILE, openCore, type OpenedCore } from './app';
import { SECRETS_FILE_NAME, type SecretStore } from './secrets/secret-store';
import { openDatabase } from './store/open';
import { readSetting, writeSetting } from './store/settings';
import { FAKE_SERVER_SCRIPT } from './tools/mcp/testing/servers';

const folders: string[] = [];
const cores: OpenedCore[] = [];

function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-mcp-store-'));
  folders.push(folder);
  return folder;
}

afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function open(dataDir: string): OpenedCore {
  const core = openCore({ dataDir, env: {} });
  cores.push(core);
  return core;
}

async function close(core: OpenedCore): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.dispose();
}

async function value<T>(core: OpenedCore, name: string, input: unknown): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/** The fake server, writing the environment it was started with to `environmentFile`. */
function fakeServerSave(environmentFile: string, env: Record<string, string | null>, extra: Record<string, unknown> = {}) {
  return { label: 'Fake', command: process.execPath, args: [FAKE_SERVER_SCRIPT, '--env-out', environmentFile], env, ...extra };
}

/** Starts the enabled servers (listing tools does) and reads what the fake server saw. */
async function environmentSeenByServer(core: OpenedCore, environmentFile: string): Promise<Record<string, string>> {
  rmSync(environmentFile, { force: true });
  await value(core, 'listTools', {});
  return JSON.parse(readFileSync(environmentFile, 'utf8')) as Record<string, string>;
}

/** Every byte SQLite keeps for this database: the file and its WAL. */
function databaseBytes(dataDir: string): string {
  const path = join(dataDir, DATABASE_FILE);
  return [path, `${path}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file).toString('latin1')).join('');
}

const SECRET = 'mcp-token-9f3b2c71';

describe('MCP server environment values', () => {
  it('never reach the Api: listMcpServers carries the variable names only', async () => {
    const dataDir = tempDir();
    const core = open(dataDir);
    const environmentFile = join(dataDir, 'seen-env.json');
    await value(core, 'saveMcpServer', fakeServerSave(environmentFile, { API_TOKEN: SECRET, MODE: 'fast' }));
    const expected: McpServerView[] = [
      {
        id: 'fake',
        label: 'Fake',
        command: process.execPath,
        args: [FAKE_SERVER_SCRIPT, '--env-out', environmentFile],
        envNames: ['API_TOKEN', 'MODE'],
        enabled: false,
        origin: 'user',
        status: 'disabled',
        error: null,
      },
    ];
    expect(await value(core, 'listMcpServers', {})).toEqual(expected);
    expect(JSON.stringify(readSetting(core.db, 'mcpServers'))).not.toContain(SECRET);
    expect(databaseBytes(dataDir)).not.toContain(SECRET);
    expect(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')).toContain(SECRET);
    expect(statSync(join(dataDir, SECRETS_FILE_NAME)).mode & 0o777).toBe(0o600);
  });

  it('reach the server process, and null keeps a stored value while a new one replaces it', async () => {
    const dataDir = tempDir();
    const core = open(dataDir);
    const environmentFile = join(dataDir, 'seen-env.json');
    await value(core, 'saveMcpServer', fakeServerSave(environmentFile, { API_TOKEN: SECRET, MODE: 'fast', OLD: 'gone-soon' }));
    await value(core, 'setMcpServerEnabled', { id: 'fake', enabled: true });
    expect(await environmentSeenByServer(core, environmentFile)).toMatchObject({ API_TOKEN: SECRET, MODE: 'fast', OLD: 'gone-soon' });

    const saved = await value<McpServerView[]>(
      core,
      'saveMcpServer',
      fakeServerSave(environmentFile, { API_TOKEN: null, MODE: 'slow' }, { id: 'fake', enabled: true }),
    );
    // The environment changed: the server is off again until the user turns it on.
    expect(saved.map(({ envNames, enabled, status }) => ({ envNames, enabled, status }))).toEqual([
      { envNames: ['API_TOKEN', 'MODE'], enabled: false, status: 'disabled' },
    ]);
    await value(core, 'setMcpServerEnabled', { id: 'fake', enabled: true });
    const seen = await environmentSeenByServer(core, environmentFile);
    expect([seen.API_TOKEN, seen.MODE, seen.OLD]).toEqual([SECRET, 'slow', undefined]);
    expect(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')).not.toContain('gone-soon');

    expect(await core.dispatch('saveMcpServer', fakeServerSave(environmentFile, { NEW_TOKEN: null }, { id: 'fake' }))).toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'NEW_TOKEN has no stored value to keep. Enter its value.' },
    });
  }, 30_000);

  it('are forgotten with their server', async () => {
    const dataDir = tempDir();
    const core = open(dataDir);
    await value(core, 'saveMcpServer', fakeServerSave(join(dataDir, 'seen-env.json'), { API_TOKEN: SECRET }));
    expect(await value(core, 'removeMcpServer', { id: 'fake' })).toEqual([]);
    expect(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')).not.toContain(SECRET);
  });

  it('move out of an older database on first open, and the server still starts with them', async () => {
    const dataDir = tempDir();
    const environmentFile = join(dataDir, 'seen-env.json');
    const seeded = openDatabase(join(dataDir, DATABASE_FILE));
    // The shape before this version: each value in the settings row.
    writeSetting(seeded, 'mcpServers', [
      {
        id: 'fake',
        label: 'Fake',
        command: process.execPath,
        args: [FAKE_SERVER_SCRIPT, '--env-out', environmentFile],
        env: { API_TOKEN: SECRET },
        enabled: true,
        origin: 'user',
      },
    ]);
    seeded.$client.close();
    expect(databaseBytes(dataDir)).toContain(SECRET);

    const core = open(dataDir);
    expect(readSetting(core.db, 'mcpServers')).toEqual([
      { id: 'fake', label: 'Fake', command: process.execPath, args: [FAKE_SERVER_SCRIPT, '--env-out', environmentFile], envNames: ['API_TOKEN'], enabled: true, origin: 'user' },
    ]);
    expect(databaseBytes(dataDir)).not.toContain(SECRET);
    expect((await value<McpServerView[]>(core, 'listMcpServers', {})).map((server) => server.envNames)).toEqual([['API_TOKEN']]);
    expect((await environmentSeenByServer(core, environmentFile)).API_TOKEN).toBe(SECRET);
    await close(core);

    // Nothing left to move the second time; the value is still there.
    const reopened = open(dataDir);
    expect((await environmentSeenByServer(reopened, environmentFile)).API_TOKEN).toBe(SECRET);
  }, 30_000);

  it('stay where they were when the secret store cannot be written, and the data still opens', async () => {
    const dataDir = tempDir();
    const seeded = openDatabase(join(dataDir, DATABASE_FILE));
    const legacy = [{ id: 'fake', label: 'Fake', command: process.execPath, args: [FAKE_SERVER_SCRIPT], env: { API_TOKEN: SECRET }, enabled: true, origin: 'user' }];
    writeSetting(seeded, 'mcpServers', legacy);
    seeded.$client.close();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failing: SecretStore = {
      get: () => null,
      getMany: () => new Map(),
      write: () => {
        throw new Error('EACCES: permission denied, open secrets.json');
      },
    };
    const core = openCore({ dataDir, env: {}, secretStore: failing });
    cores.push(core);
    expect(readSetting(core.db, 'mcpServers')).toEqual(legacy);
    expect(warn.mock.calls).toEqual([['Anybrain: MCP environment values could not be moved out of the database yet: EACCES: permission denied, open secrets.json']]);
    warn.mockRestore();
  });
});

describe('enabling MCP servers', () => {
  it('saves a new server disabled whatever the caller asks, and only setMcpServerEnabled turns it on', async () => {
    const dataDir = tempDir();
    const core = open(dataDir);
    const save = fakeServerSave(join(dataDir, 'seen-env.json'), {}, { enabled: true });
    const enabledOf = (servers: McpServerView[]) => servers.map((server) => [server.id, server.enabled]);
    expect(enabledOf(await value(core, 'saveMcpServer', save))).toEqual([['fake', false]]);
    expect(enabledOf(await value(core, 'setMcpServerEnabled', { id: 'fake', enabled: true }))).toEqual([['fake', true]]);

    // A new label changes nothing that runs: the server stays on.
    expect(enabledOf(await value(core, 'saveMcpServer', { ...save, id: 'fake', label: 'Renamed' }))).toEqual([['fake', true]]);
    // A changed argument list is a different program run: off until enabled again.
    expect(enabledOf(await value(core, 'saveMcpServer', { ...save, id: 'fake', label: 'Renamed', args: [...save.args, '--start-delay', '1'] }))).toEqual([
      ['fake', false],
    ]);
    await value(core, 'setMcpServerEnabled', { id: 'fake', enabled: true });
    expect(enabledOf(await value(core, 'saveMcpServer', { ...save, id: 'fake', command: `${process.execPath}-other`, label: 'Renamed' }))).toEqual([
      ['fake', false],
    ]);
    // `enabled: false` from an older caller still turns a server off.
    await value(core, 'saveMcpServer', { ...save, id: 'fake' });
    await value(core, 'setMcpServerEnabled', { id: 'fake', enabled: true });
    expect(enabledOf(await value(core, 'saveMcpServer', { ...save, id: 'fake', enabled: false }))).toEqual([['fake', false]]);

    expect(await core.dispatch('setMcpServerEnabled', { id: 'nope', enabled: true })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'That MCP server no longer exists.' },
    });
  });
});
