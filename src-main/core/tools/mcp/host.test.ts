import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpServerHost, type McpHostOptions } from './host';
import { fakeServer, isAlive } from './testing/servers';
import type { McpServerConfig } from './config';

let folder: string;
const hosts: McpServerHost[] = [];

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'anybrain-mcp-host-'));
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.dispose()));
  vi.unstubAllEnvs();
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A host the suite disposes of after each test. */
function hostFor(config: McpServerConfig, options: Partial<McpHostOptions> = {}): McpServerHost {
  const host = new McpServerHost(config, { restartBackoffMs: 20, closeGraceMs: 200, killGraceMs: 500, ...options });
  hosts.push(host);
  return host;
}

function startsRecordedIn(marker: string): number[] {
  return existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
}

async function pidOf(host: McpServerHost): Promise<number> {
  const result = await host.callTool('pid', {});
  expect(result.isError).toBe(false);
  return Number(result.output);
}

describe('McpServerHost', () => {
  it('starts on first use, not before', async () => {
    const marker = join(folder, 'lazy.txt');
    const host = hostFor(fakeServer(['--marker', marker]));
    expect(host.status()).toBe('stopped');
    expect(host.processId).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(startsRecordedIn(marker)).toEqual([]);

    const tools = await host.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(host.status()).toBe('running');
    expect(startsRecordedIn(marker)).toEqual([host.processId]);
    await host.listTools();
    expect(startsRecordedIn(marker)).toHaveLength(1);
  });

  it('returns text exactly, keeps images beside it and carries tool errors', async () => {
    const host = hostFor(fakeServer());
    expect(await host.callTool('echo', { message: 'exact  text\nwith lines ✓' })).toEqual({ output: 'exact  text\nwith lines ✓', isError: false });
    expect(await host.callTool('mixed', {})).toEqual({
      output: 'before\nafter',
      isError: false,
      images: [{ mimeType: 'image/png', data: Buffer.alloc(1234, 1).toString('base64') }],
    });
    expect(await host.callTool('fail', {})).toEqual({ output: 'it went wrong', isError: true });
  });

  it('times out a slow call and stays usable', async () => {
    const host = hostFor(fakeServer(), { toolTimeoutMs: 300 });
    const started = Date.now();
    const result = await host.callTool('sleep', { ms: 10_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toEqual({ output: 'The MCP server "Fake" did not answer sleep within 0.3 s; the call was cancelled.', isError: true });
    expect(await host.callTool('echo', { message: 'still here' })).toEqual({ output: 'still here', isError: false });
  });

  it('ends a call when its signal aborts', async () => {
    const host = hostFor(fakeServer());
    await host.listTools();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await host.callTool('sleep', { ms: 10_000 }, controller.signal);
    expect(result).toEqual({ output: 'The call was cancelled.', isError: true });
    expect(host.status()).toBe('running');
  });

  it('turns a crash mid-call into an error result, then restarts on the next call', async () => {
    const host = hostFor(fakeServer());
    const firstPid = await pidOf(host);
    const result = await host.callTool('crash', { ms: 50 });
    expect(result.isError).toBe(true);
    expect(result.output).toBe('The MCP server "Fake" stopped during the call: the process exited. Its last output: fake server: crashing (as asked)');
    expect(host.status()).toBe('stopped');
    expect(host.lastError()).toContain('stopped unexpectedly');
    expect(isAlive(firstPid)).toBe(false);

    const secondPid = await pidOf(host);
    expect(secondPid).not.toBe(firstPid);
    expect(host.status()).toBe('running');
  });

  it('reports the server failing after too many restarts within a minute', async () => {
    const marker = join(folder, 'restarts.txt');
    const host = hostFor(fakeServer(['--marker', marker]), { maxRestartsPerMinute: 2 });
    for (let crash = 0; crash < 3; crash += 1) {
      expect((await host.callTool('crash', {})).output).toContain('stopped during the call');
    }
    expect(host.status()).toBe('failed');
    const refused = await host.callTool('echo', { message: 'x' });
    expect(refused.isError).toBe(true);
    expect(refused.output).toContain('3 times within a minute, so it is not started again for now');
    expect(refused.output).toContain('Last error: The MCP server "Fake" stopped unexpectedly');
    expect(host.lastError()).toBe(refused.output);
    expect(startsRecordedIn(marker)).toHaveLength(3);
  });

  it('reports a server that exits while starting, with its last output', async () => {
    const host = hostFor(fakeServer(['--exit-at-start']));
    const result = await host.callTool('echo', { message: 'x' });
    expect(result).toEqual({
      output: 'The MCP server "Fake" exited while starting: the process exited. Its last output: fake server: refusing to start (as asked)',
      isError: true,
    });
    expect(host.status()).toBe('failed');
    expect(host.lastError()).toBe(result.output);
    await expect(host.listTools()).rejects.toThrow(/exited while starting/);
  });

  it('gives up on a server that does not finish starting in time, and stops its process', async () => {
    const marker = join(folder, 'slow-start.txt');
    // Long enough for a loaded machine to start the process and record it; the server itself waits a minute.
    const host = hostFor(fakeServer(['--marker', marker, '--start-delay', '60000']), { startTimeoutMs: 3_000 });
    const result = await host.callTool('echo', { message: 'x' });
    expect(result).toEqual({ output: 'The MCP server "Fake" did not finish starting within 3 s.', isError: true });
    expect(host.status()).toBe('failed');
    expect(isAlive(startsRecordedIn(marker)[0]!)).toBe(false);
  });

  it('reports a command that does not exist', async () => {
    const host = hostFor({ ...fakeServer(), command: 'anybrain-no-such-mcp-server' });
    const started = Date.now();
    const result = await host.callTool('echo', { message: 'x' });
    expect(result.output).toBe('The MCP server "Fake" could not start: the command "anybrain-no-such-mcp-server" was not found. Check it, or give its full path.');
    expect(host.status()).toBe('failed');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('gives the server a minimal environment plus its own variables, never the app keys', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-test-secret');
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-secret');
    const host = hostFor(fakeServer([], { env: { SERVER_SETTING: 'on' } }));
    const names = (await host.callTool('env', {})).output.split(',');
    expect(names).toContain('PATH');
    expect(names).toContain('SERVER_SETTING');
    expect(names).not.toContain('ANTHROPIC_API_KEY');
    expect(names).not.toContain('OPENAI_API_KEY');
  });

  it('leaves no process behind when disposed', async () => {
    const host = hostFor(fakeServer());
    const pid = await pidOf(host);
    expect(isAlive(pid)).toBe(true);
    await host.dispose();
    expect(isAlive(pid)).toBe(false);
    expect(host.status()).toBe('stopped');
    expect(host.processId).toBeNull();
    expect(await host.callTool('echo', { message: 'x' })).toEqual({ output: 'The MCP server "Fake" is shut down.', isError: true });
  });

  it('kills a server that ignores SIGTERM, and ends the call in flight', async () => {
    const host = hostFor(fakeServer(['--ignore-sigterm']), { closeGraceMs: 100, killGraceMs: 300 });
    const pid = await pidOf(host);
    const inFlight = host.callTool('sleep', { ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await host.dispose();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(isAlive(pid)).toBe(false);
    expect(await inFlight).toEqual({ output: 'The MCP server "Fake" was shut down during the call.', isError: true });
  });

  it('lets a caller abandon a listing without stopping the start', async () => {
    const host = hostFor(fakeServer());
    const controller = new AbortController();
    controller.abort();
    await expect(host.listTools(controller.signal)).rejects.toThrow();
    expect((await host.listTools()).length).toBeGreaterThan(0);
    expect(host.status()).toBe('running');
  });

  it('stops a server that is still starting when disposed', async () => {
    const marker = join(folder, 'starting.txt');
    const host = hostFor(fakeServer(['--marker', marker, '--start-delay', '5000']));
    const listing = host.listTools();
    await vi.waitFor(() => expect(startsRecordedIn(marker)).toHaveLength(1), { timeout: 5_000, interval: 10 });
    const started = Date.now();
    await host.dispose();
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(listing).rejects.toThrow(/shut down/);
    expect(isAlive(startsRecordedIn(marker)[0]!)).toBe(false);
    expect(host.status()).toBe('stopped');
  });
});
