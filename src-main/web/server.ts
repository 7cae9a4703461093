/**
 * The loopback web host: the same Api as the Electron shell, over HTTP (commands) and SSE (events), for browser mode
 * and end-to-end tests. Binds 127.0.0.1 only; a random per-launch token; Host and Origin checks against DNS
 * rebinding and cross-site requests.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WEB_COMMAND_PATH, WEB_EVENTS_PATH, type ApiEvent } from '../../src-shared/api';
import type { Core } from '../core/core-types';

export interface WebHostOptions {
  readonly core: Core;
  /** 0 picks a free port. */
  readonly port?: number;
  /** The built renderer (`out/renderer`). */
  readonly staticDir: string;
}

export interface WebHost {
  readonly port: number;
  readonly origin: string;
  /** The address to open: carries the per-launch token once, which the host trades for a cookie. */
  readonly launchUrl: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function sameSecret(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}

function readCookie(request: IncomingMessage, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

function send(response: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('too-large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { core, staticDir } = options;
  const token = randomBytes(32).toString('base64url');
  const sseClients = new Set<ServerResponse>();
  let port = 0;
  let cookieName = '';

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const isAuthorised = (request: IncomingMessage): boolean => {
    const cookie = readCookie(request, cookieName);
    if (cookie !== null && sameSecret(cookie, token)) return true;
    const authorization = request.headers.authorization;
    return authorization?.startsWith('Bearer ') === true && sameSecret(authorization.slice(7), token);
  };

  const serveStatic = (pathname: string, response: ServerResponse): void => {
    const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
    const candidate = join(staticDir, relative);
    if (!candidate.startsWith(staticDir + sep) && candidate !== staticDir) {
      send(response, 404, 'Not found');
      return;
    }
    const isFile = existsSync(candidate) && statSync(candidate).isFile();
    // Unknown paths without an extension are the single-page app's own routes.
    const file = isFile ? candidate : extname(relative) === '' ? join(staticDir, 'index.html') : null;
    if (file === null || !existsSync(file)) {
      send(
        response,
        404,
        file === null ? 'Not found' : 'The window is not built yet. Run `npm run build`, then start `anybrain serve` again.',
      );
      return;
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    createReadStream(file).pipe(response);
  };

  const handleCommand = async (name: string, request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let raw: string;
    try {
      raw = await readBody(request);
    } catch {
      send(response, 413, JSON.stringify({ ok: false, error: { code: 'too-large', message: 'The request is too large.' } }), 'application/json');
      return;
    }
    let input: unknown;
    try {
      input = raw.length === 0 ? {} : JSON.parse(raw);
    } catch {
      send(response, 400, JSON.stringify({ ok: false, error: { code: 'invalid-json', message: 'The request body is not JSON.' } }), 'application/json');
      return;
    }
    const result = await core.dispatch(name, input);
    send(response, 200, JSON.stringify(result), 'application/json');
  };

  const handleEvents = (request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write('retry: 1000\n\n');
    sseClients.add(response);
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    request.on('close', () => {
      clearInterval(heartbeat);
      sseClients.delete(response);
    });
  };

  const server = createServer((request, response) => {
    const host = request.headers.host ?? '';
    if (!allowedHosts().has(host)) {
      // A page on another name resolving to 127.0.0.1 (DNS rebinding) lands here.
      send(response, 421, 'Anybrain answers only on 127.0.0.1 and localhost.');
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      send(response, 403, 'Cross-site requests are refused.');
      return;
    }
    const url = new URL(request.url ?? '/', `http://${host}`);
    const offeredToken = url.searchParams.get('token');
    if (request.method === 'GET' && offeredToken !== null) {
      if (!sameSecret(offeredToken, token)) {
        send(response, 401, 'That link has an old or wrong token. Open the address `anybrain serve` printed this time.');
        return;
      }
      url.searchParams.delete('token');
      response.writeHead(303, {
        ...SECURITY_HEADERS,
        'Set-Cookie': `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        Location: `${url.pathname}${url.search}${url.hash}`,
        'Cache-Control': 'no-store',
      });
      response.end();
      return;
    }
    if (!isAuthorised(request)) {
      send(response, 401, 'Open the address `anybrain serve` printed: it carries this launch\u2019s access token.');
      return;
    }
    if (url.pathname.startsWith(`${WEB_COMMAND_PATH}/`)) {
      if (request.method !== 'POST') {
        send(response, 405, 'Commands are POST requests.');
        return;
      }
      // A cookie alone could ride on a request another local page forged; browsers always send Origin on POST.
      if (origin === undefined && request.headers.authorization === undefined) {
        send(response, 403, 'Commands need an Origin header or a bearer token.');
        return;
      }
      void handleCommand(url.pathname.slice(WEB_COMMAND_PATH.length + 1), request, response).catch(() => {
        if (!response.headersSent) send(response, 500, JSON.stringify({ ok: false, error: { code: 'internal', message: 'The command failed.' } }), 'application/json');
      });
      return;
    }
    if (url.pathname === WEB_EVENTS_PATH && request.method === 'GET') {
      handleEvents(request, response);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'Method not allowed.');
      return;
    }
    serveStatic(url.pathname, response);
  });

  const unsubscribe = core.onEvent((event: ApiEvent) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of sseClients) client.write(frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  cookieName = `anybrain_session_${port}`;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    launchUrl: `${origin}/?token=${token}`,
    async close() {
      unsubscribe();
      for (const client of sseClients) client.end();
      sseClients.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
