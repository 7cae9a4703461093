import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent, CommandResult } from '../../src-shared/api';
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
  token = new URL(host.launchUrl).searchParams.get('token')!;
});

afterEach(async () => {
  await host.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const hostHeader = () => ({ Host: `127.0.0.1:${host.port}` });

describe('web host', () => {
  it('binds to 127.0.0.1 and prints a launch URL carrying the token', () => {
    expect(host.launchUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=[A-Za-z0-9_-]{43}$`));
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

  it('asks for the token when there is none, and refuses a wrong one', async () => {
    expect((await raw(host.port, '/', { headers: hostHeader() })).status).toBe(401);
    expect((await raw(host.port, '/?token=wrong', { headers: hostHeader() })).status).toBe(401);
  });

  it('trades the launch token for an HttpOnly SameSite cookie and serves the window with it', async () => {
    const launch = await raw(host.port, `/?token=${token}`, { headers: hostHeader() });
    expect(launch.status).toBe(303);
    expect(launch.headers.location).toBe('/');
    const cookie = String(launch.headers['set-cookie']);
    expect(cookie).toBe(`anybrain_session_${host.port}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    const page = await raw(host.port, '/', { headers: { ...hostHeader(), Cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Anybrain</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const route = await raw(host.port, '/c/123', { headers: { ...hostHeader(), Cookie: cookie.split(';')[0]! } });
    expect(route.body).toContain('<title>Anybrain</title>');
  });

  it('runs commands for a same-origin page with the cookie, or a bearer client', async () => {
    const cookie = `anybrain_session_${host.port}=${token}`;
    const fromPage = await raw(host.port, '/api/command/listConversations', {
      method: 'POST',
      headers: { ...hostHeader(), Cookie: cookie, Origin: host.origin, 'Content-Type': 'application/json' },
      body: '{"query":"x"}',
    });
    expect(fromPage.status).toBe(200);
    expect(JSON.parse(fromPage.body)).toEqual({ ok: true, value: { echoed: { query: 'x' } } });
    const fromClient = await raw(host.port, '/api/command/getSettings', { method: 'POST', headers: { ...hostHeader(), Authorization: `Bearer ${token}` } });
    expect(JSON.parse(fromClient.body)).toEqual({ ok: true, value: { echoed: {} } });
    expect(core.dispatched).toEqual([['listConversations', { query: 'x' }], ['getSettings', {}]]);
  });

  it('refuses a command that carries only the cookie and no Origin', async () => {
    const response = await raw(host.port, '/api/command/listConversations', {
      method: 'POST',
      headers: { ...hostHeader(), Cookie: `anybrain_session_${host.port}=${token}` },
      body: '{}',
    });
    expect(response.status).toBe(403);
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
      const response = await raw(host.port, path, { headers: { ...hostHeader(), Authorization: `Bearer ${token}` } });
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
