/**
 * Attacks on the web host from the security review, replayed over real sockets against a started host: stolen or
 * misplaced tokens, rebinding Host names, request targets that used to throw and end the process, oversized bodies.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMAND_BODY_BYTES, type ApiEvent, type CommandResult } from '../../src-shared/api';
import { tokenFromLaunchFragment } from '../../src-shared/web-launch';
import type { Core } from '../core/core-types';
import { startWebHost, type WebHost } from './server';

class RecordingCore implements Core {
  readonly dataDir = '/tmp/none';
  readonly dispatched: string[] = [];
  async dispatch(name: string): Promise<CommandResult<unknown>> {
    this.dispatched.push(name);
    return { ok: true, value: [] };
  }
  onEvent(_listener: (event: ApiEvent) => void) {
    return () => undefined;
  }
  async dispose() {}
}

/** Writes bytes on a fresh connection and returns everything the host sends until it closes the connection. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No close after: ${JSON.stringify(received)}`));
    }, 5_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.write(bytes);
  });
}

const statusLine = (response: string) => response.split('\r\n', 1)[0];
const bodyOf = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4);

let staticDir: string;
let core: RecordingCore;
let host: WebHost;
let token: string;

beforeEach(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'anybrain-web-attacks-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Anybrain</title>');
  core = new RecordingCore();
  host = await startWebHost({ core, staticDir });
  token = tokenFromLaunchFragment(new URL(host.launchUrl).hash)!;
});

afterEach(async () => {
  await host.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const saveServerRequest = (headers: string[], target = '/api/command/saveMcpServer') => {
  const body = JSON.stringify({ id: 'x', label: 'x', command: 'touch', args: ['/tmp/pwned'], env: {}, enabled: true });
  return [`POST ${target} HTTP/1.1`, ...headers, 'Content-Type: application/json', `Content-Length: ${body.length}`, 'Connection: close', '', body].join('\r\n');
};

/** A normal request, to show the host still answers after an attack. */
async function stillAnswers(): Promise<string> {
  return statusLine(await exchange(host.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`))!;
}

describe('a stolen or misplaced token', () => {
  it('refuses commands without the bearer token, with the token only in a cookie, or only in ?token=', async () => {
    const hostLine = `Host: 127.0.0.1:${host.port}`;
    const attempts = [
      saveServerRequest([hostLine]),
      saveServerRequest([hostLine, `Cookie: anybrain_session_${host.port}=${token}`]),
      saveServerRequest([hostLine, `Origin: ${host.origin}`, `Cookie: anybrain_session_${host.port}=${token}`]),
      saveServerRequest([hostLine], `/api/command/saveMcpServer?token=${token}`),
      saveServerRequest([hostLine, `Authorization: Basic ${token}`]),
      saveServerRequest([hostLine, `Authorization: ${token}`]),
      saveServerRequest([hostLine, `Authorization: Bearer ${token.slice(0, -1)}`]),
      `GET /api/events HTTP/1.1\r\n${hostLine}\r\nCookie: anybrain_session_${host.port}=${token}\r\nConnection: close\r\n\r\n`,
    ];
    for (const attempt of attempts) {
      const response = await exchange(host.port, attempt);
      expect(statusLine(response)).toBe('HTTP/1.1 401 Unauthorized');
      expect(response).not.toMatch(/set-cookie/i);
    }
    expect(core.dispatched).toEqual([]);
  });

  it('refuses the retired ?token= address with a pointer to the new one, and sets no cookie', async () => {
    const response = await exchange(host.port, `GET /?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`);
    expect(statusLine(response)).toBe('HTTP/1.1 401 Unauthorized');
    expect(bodyOf(response)).toBe(
      'Anybrain no longer takes its token in `?token=`. Open the address `anybrain serve` printed this time: it looks like http://127.0.0.1:PORT/#token=\u2026',
    );
    expect(response).not.toMatch(/set-cookie/i);
    expect(response).not.toContain(token);
  });

  it('never sends a cookie on any answer', async () => {
    const hostLine = `Host: 127.0.0.1:${host.port}`;
    const answers = await Promise.all([
      exchange(host.port, `GET / HTTP/1.1\r\n${hostLine}\r\nConnection: close\r\n\r\n`),
      exchange(host.port, `GET /c/1 HTTP/1.1\r\n${hostLine}\r\nConnection: close\r\n\r\n`),
      exchange(host.port, saveServerRequest([hostLine, `Authorization: Bearer ${token}`], '/api/command/listMcpServers')),
    ]);
    expect(answers.map(statusLine)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    for (const answer of answers) expect(answer).not.toMatch(/set-cookie/i);
  });
});

describe('rebinding Host headers', () => {
  it('answers 421 for another name or 400 without one, and runs nothing', async () => {
    const bearer = `Authorization: Bearer ${token}`;
    const answers = await Promise.all([
      exchange(host.port, saveServerRequest([`Host: evil.example:${host.port}`, bearer])),
      exchange(host.port, saveServerRequest([`Host: 127.0.0.1.nip.io:${host.port}`, bearer])),
      exchange(host.port, saveServerRequest([`Host: 127.0.0.1:${host.port + 1}`, bearer])),
      exchange(host.port, saveServerRequest([bearer])),
      exchange(host.port, saveServerRequest([bearer]).replace('HTTP/1.1', 'HTTP/1.0')),
    ]);
    expect(answers.map(statusLine)).toEqual([
      'HTTP/1.1 421 Misdirected Request',
      'HTTP/1.1 421 Misdirected Request',
      'HTTP/1.1 421 Misdirected Request',
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 421 Misdirected Request',
    ]);
    expect(core.dispatched).toEqual([]);
  });
});

describe('malformed requests', () => {
  const hostLine = () => `Host: 127.0.0.1:${host.port}`;

  it.each([
    ['overlong UTF-8 in percent-encoding', '/%c0%ae'],
    ['a truncated percent-escape', '/%E0%A4%A'],
    ['a truncated escape under assets', '/assets/%E0%A4%A.js'],
    ['an absolute-form target that URL parsing throws on', 'http://['],
    ['an absolute-form target', `http://127.0.0.1:1/`],
    ['the asterisk target', '*'],
  ])('answers %s with 400 and keeps serving', async (_label, target) => {
    const response = await exchange(host.port, `GET ${target} HTTP/1.1\r\n${hostLine()}\r\nConnection: close\r\n\r\n`);
    expect(statusLine(response)).toBe('HTTP/1.1 400 Bad Request');
    expect(await stillAnswers()).toBe('HTTP/1.1 200 OK');
  });

  it.each([
    ['a garbage request line', 'HELLO\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
    ['binary noise', '\u0000\u0001\u0002\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
    ['headers too large', `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fill: ${'a'.repeat(40_000)}\r\n\r\n`, 'HTTP/1.1 431 Request Header Fields Too Large'],
  ])('answers %s from the parser and keeps serving', async (_label, bytes, expected) => {
    const response = await exchange(host.port, bytes);
    expect(statusLine(response)).toBe(expected);
    expect(await stillAnswers()).toBe('HTTP/1.1 200 OK');
  });
});

describe('bodies over the limit', () => {
  it('answers a declared oversized body with a readable 413 naming the limit, then closes', async () => {
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: host.port });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
      socket.write(
        [
          'POST /api/command/importTranscript HTTP/1.1',
          `Host: 127.0.0.1:${host.port}`,
          `Authorization: Bearer ${token}`,
          'Content-Type: application/json',
          `Content-Length: ${MAX_COMMAND_BODY_BYTES + 1}`,
          '',
          `{"content":"${'a'.repeat(64 * 1024)}`,
        ].join('\r\n'),
      );
    });
    expect(statusLine(response)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(bodyOf(response))).toEqual({
      ok: false,
      error: { code: 'too-large', message: `The request is larger than the ${MAX_COMMAND_BODY_BYTES} bytes a command may carry.` },
    });
    expect(core.dispatched).toEqual([]);
    expect(await stillAnswers()).toBe('HTTP/1.1 200 OK');
  });

  it('answers a streamed body that grows past the limit with a readable 413 while the client is still sending', async () => {
    const smallHost = await startWebHost({ core, staticDir, maxBodyBytes: 64 * 1024 });
    const smallToken = tokenFromLaunchFragment(new URL(smallHost.launchUrl).hash)!;
    try {
      const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const outgoing = httpRequest(
          {
            host: '127.0.0.1',
            port: smallHost.port,
            path: '/api/command/importTranscript',
            method: 'POST',
            headers: { Authorization: `Bearer ${smallToken}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
          },
          (incoming) => {
            let body = '';
            incoming.setEncoding('utf8');
            incoming.on('data', (chunk: string) => (body += chunk));
            incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, connection: incoming.headers.connection, body }));
          },
        );
        // The host closes once it has answered; the client's unsent rest fails, which is expected.
        outgoing.on('error', (error) => setTimeout(() => reject(error), 1_000));
        const chunk = 'a'.repeat(16 * 1024);
        let sent = 0;
        const pump = (): void => {
          while (sent < 4 * 1024 * 1024) {
            sent += chunk.length;
            if (!outgoing.write(chunk)) {
              outgoing.once('drain', pump);
              return;
            }
          }
          outgoing.end();
        };
        outgoing.write('{"content":"');
        pump();
      });
      expect(answer).toEqual({
        status: 413,
        connection: 'close',
        body: JSON.stringify({ ok: false, error: { code: 'too-large', message: 'The request is larger than the 65536 bytes a command may carry.' } }),
      });
      expect(core.dispatched).toEqual([]);
    } finally {
      await smallHost.close();
    }
  });
});
