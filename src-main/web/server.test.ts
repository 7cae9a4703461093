import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent, CommandResult } from '../../src-shared/api';
import { tokenFromLaunchFragment } from '../../src-shared/web-launch';
import type { Core } from '../core/core-types';
import { startWebHost, type WebHost } from './server';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
    });
    outgoing.on('error', reject);
    if (init.body !== undefined) outgoing.write(init.body);
    outgoing.end();
  });
}

class FakeCore implements Core {
  readonly dataDir = '/tmp/none';
  readonly dispatched: Array<[string, unknown]> = [];
  private listeners = new Set<(event: ApiEvent) => void>();
  async dispatch(name: string, rawInput: unknown): Promise<CommandResult<unknown>> {
    this.dispatched.push([name, rawInput]);
    return { ok: true, value: { echoed: rawInput } };
  }
  onEvent(listener: (event: ApiEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: ApiEvent) {
    for (const listener of this.listeners) listener(event);
  }
  async dispose() {}
}

let staticDir: string;
let core: FakeCore;
let host: WebHost;
let token: string;

beforeEach(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'anybrain-web-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Anybrain</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'anybrain-secret.txt'), 'secret');
  core = new FakeCore();
  host = await startWebHost({ core, staticDir });
  token = tokenFromLaunchFragment(new URL(host.launchUrl).hash)!;
});

afterEach(async () => {
  await host.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const hostHeader = () => ({ Host: `127.0.0.1:${host.port}` });

describe('web host', () => {
  it('binds to 127.0.0.1 and prints a launch URL carrying the token in its fragment', () => {
    expect(host.launchUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/#token=[A-Za-z0-9_-]{43}$`));
  });

  it('refuses other Host names (DNS rebinding)', async () => {
    const response = await raw(host.port, '/', { headers: { Host: `evil.example:${host.port}`, Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(421);
  });

  it('refuses cross-site origins even with the token', async () => {
    const response = await raw(host.port, '/api/command/listConversations', {
      method: 'POST',
      headers: { ...hostHeader(), Origin: 'http://evil.example', Authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(core.dispatched).toEqual([]);
  });

  it('asks for the token on /api/ paths when there is none, and refuses a wrong one', async () => {
    const missing = await raw(host.port, '/api/command/listConversations', { method: 'POST', headers: hostHeader(), body: '{}' });
    expect(missing.status).toBe(401);
    expect(missing.body).toBe(
      'Open the address `anybrain serve` printed: it carries this launch\u2019s access token after `#token=`, and the page sends it as a bearer token.',
    );
    const wrong = await raw(host.port, '/api/events', { headers: { ...hostHeader(), Authorization: `Bearer ${token.slice(1)}x` } });
    expect(wrong.status).toBe(401);
    expect(core.dispatched).toEqual([]);
  });

  it('serves the window and its routes without the token (they hold no data), and sets no cookie', async () => {
    const page = await raw(host.port, '/', { headers: hostHeader() });
    expect(page.status).toBe(200);
    expect(page.body).toBe('<!doctype html><title>Anybrain</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['set-cookie']).toBeUndefined();
    const route = await raw(host.port, '/c/123', { headers: hostHeader() });
    expect(route.body).toBe('<!doctype html><title>Anybrain</title>');
    const asset = await raw(host.port, '/assets/app.js', { headers: hostHeader() });
    expect([asset.status, asset.body, asset.headers['content-type']]).toEqual([200, 'console.log(1)', 'text/javascript; charset=utf-8']);
  });

  it('runs commands for a same-origin page or any client that sends the bearer token', async () => {
    const fromPage = await raw(host.port, '/api/command/listConversations', {
      method: 'POST',
      headers: { ...hostHeader(), Authorization: `Bearer ${token}`, Origin: host.origin, 'Content-Type': 'application/json' },
      body: '{"query":"x"}',
    });
    expect(fromPage.status).toBe(200);
    expect(JSON.parse(fromPage.body)).toEqual({ ok: true, value: { echoed: { query: 'x' } } });
    const fromClient = await raw(host.port, '/api/command/getSettings', { method: 'POST', headers: { ...hostHeader(), Authorization: `Bearer ${token}` } });
    expect(JSON.parse(fromClient.body)).toEqual({ ok: true, value: { echoed: {} } });
    expect(core.dispatched).toEqual([['listConversations', { query: 'x' }], ['getSettings', {}]]);
  });

  it('answers an unknown /api/ path with 404 and a command sent as GET with 405', async () => {
    const auth = { ...hostHeader(), Authorization: `Bearer ${token}` };
    expect((await raw(host.port, '/api/nothing', { headers: auth })).status).toBe(404);
    expect((await raw(host.port, '/api/command/getSettings', { headers: auth })).status).toBe(405);
    expect(core.dispatched).toEqual([]);
  });

  it('answers malformed JSON with a clear error envelope', async () => {
    const response = await raw(host.port, '/api/command/listConversations', {
      method: 'POST',
      headers: { ...hostHeader(), Authorization: `Bearer ${token}` },
      body: '{nope',
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ ok: false, error: { code: 'invalid-json', message: 'The request body is not JSON.' } });
  });

  it('never serves files outside the window folder', async () => {
    for (const path of ['/../anybrain-secret.txt', '/%2e%2e/anybrain-secret.txt', '/assets/..%2f..%2fanybrain-secret.txt']) {
      const response = await raw(host.port, path, { headers: hostHeader() });
      expect(response.body).not.toContain('secret');
    }
  });

  it('streams events over SSE', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port: host.port, path: '/api/events', headers: { ...hostHeader(), Authorization: `Bearer ${token}` } },
        (incoming) => {
          expect(incoming.headers['content-type']).toBe('text/event-stream; charset=utf-8');
          let body = '';
          incoming.setEncoding('utf8');
          incoming.on('data', (chunk: string) => {
            body += chunk;
            if (body.includes('conversation-deleted')) {
              outgoing.destroy();
              resolve(body);
            }
          });
          setTimeout(() => core.emit({ type: 'conversation-deleted', conversationId: 'c1' }), 20);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(received).toBe('retry: 1000\n\ndata: {"type":"conversation-deleted","conversationId":"c1"}\n\n');
  });
});
