/**
 * The loopback web host: the same Api as the Electron shell, over HTTP (commands) and SSE (events), for browser mode
 * and end-to-end tests. Binds 127.0.0.1 only; a random per-launch token, taken only as `Authorization: Bearer` on
 * `/api/` paths; Host and Origin checks against DNS rebinding and cross-site requests. No cookie is set or read:
 * cookies are not separated by port, so any other server on 127.0.0.1 the browser visits would receive one.
 *
 * Invariant: no request, however malformed, ends the process. Bad targets answer 400, parser errors answer 4xx on the
 * raw socket, and anything a handler throws answers 500.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, sep } from 'node:path';
import { MAX_COMMAND_BODY_BYTES, WEB_COMMAND_PATH, WEB_EVENTS_PATH, type ApiEvent } from '../../src-shared/api';
import { bearerHeaderValue, webLaunchUrl } from '../../src-shared/web-launch';
import type { Core } from '../core/core-types';

export interface WebHostOptions {
  readonly core: Core;
  /** 0 picks a free port. */
  readonly port?: number;
  /** The built renderer (`out/renderer`). */
  readonly staticDir: string;
  /** The largest command body read, in bytes; `MAX_COMMAND_BODY_BYTES` unless a test needs a small one. */
  readonly maxBodyBytes?: number;
}

export interface WebHost {
  readonly port: number;
  readonly origin: string;
  /** The address to open: `/#token=…`. The fragment never leaves the browser; the page sends it as a bearer token. */
  readonly launchUrl: string;
  close(): Promise<void>;
}

const HEARTBEAT_MS = 15_000;

/** Everything under this prefix is data or commands and needs the bearer token; everything else is the static window. */
const API_PATH = '/api';

/** The query parameter earlier versions took the token in; refused now so an old address never authenticates. */
const RETIRED_TOKEN_PARAMETER = 'token';

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

const JSON_TYPE = 'application/json';

const MISSING_TOKEN_MESSAGE =
  'Open the address `anybrain serve` printed: it carries this launch\u2019s access token after `#token=`, and the page sends it as a bearer token.';
const RETIRED_TOKEN_MESSAGE =
  'Anybrain no longer takes its token in `?token=`. Open the address `anybrain serve` printed this time: it looks like http://127.0.0.1:PORT/#token=\u2026';

function sameSecret(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  contentType = 'text/plain; charset=utf-8',
  extraHeaders: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...extraHeaders,
  });
  response.end(body);
}

function errorEnvelope(code: string, message: string): string {
  return JSON.stringify({ ok: false, error: { code, message } });
}

/**
 * The path and query of an origin-form request target (`/path?query`). Absolute-form (`http://…`), `*` and anything
 * else are null: this host only ever serves its own pages, and `new URL` throws on some of them (`http://[`).
 */
function parseOriginFormTarget(target: string | undefined): URL | null {
  if (target === undefined || !target.startsWith('/')) return null;
  try {
    // Prefixing a fixed origin keeps `//name/…` a path instead of a host.
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return null;
  }
}

/** `decodeURIComponent` throws `URIError` on malformed percent-encoding (`%E0%A4%A`, overlong `%c0%ae`). */
function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

type BodyOutcome = { readonly kind: 'read'; readonly text: string } | { readonly kind: 'too-large' };

function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  // Node has already checked that a Content-Length header is a plain decimal number.
  const declaredLength = Number(request.headers['content-length'] ?? 0);
  if (declaredLength > maxBytes) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // Stop reading but keep the socket: destroying it here would discard the 413 before the client reads it.
      request.off('data', onData);
      request.pause();
      chunks.length = 0;
      resolve({ kind: 'too-large' });
    };
    request.on('data', onData);
    request.on('end', () => resolve({ kind: 'read', text: Buffer.concat(chunks).toString('utf8') }));
    request.on('error', reject);
  });
}

/** Answers a request Node's parser refused before any handler saw it, then closes that connection. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = `${STATUS_CODES[status] ?? 'Bad Request'}: the request could not be read.\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { core, staticDir } = options;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_COMMAND_BODY_BYTES;
  const token = randomBytes(32).toString('base64url');
  const expectedAuthorization = bearerHeaderValue(token);
  const sseClients = new Set<ServerResponse>();
  let port = 0;

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const hasBearerToken = (request: IncomingMessage): boolean => {
    const authorization = request.headers.authorization;
    return authorization !== undefined && sameSecret(authorization, expectedAuthorization);
  };

  const serveStatic = (pathname: string, response: ServerResponse): void => {
    const decoded = decodePath(pathname);
    if (decoded === null) {
      send(response, 400, 'The address has malformed percent-encoding.');
      return;
    }
    const relative = normalize(decoded).replace(/^([/\\])+/, '');
    const candidate = join(staticDir, relative);
    if ((!candidate.startsWith(staticDir + sep) && candidate !== staticDir) || candidate.includes('\0')) {
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
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  };

  const handleCommand = async (name: string, request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readBody(request, maxBodyBytes);
    if (body.kind === 'too-large') {
      send(
        response,
        413,
        errorEnvelope('too-large', `The request is larger than the ${maxBodyBytes} bytes a command may carry.`),
        JSON_TYPE,
        // The unread rest of the body cannot be skipped on this connection; the client sees the answer, then the close.
        { Connection: 'close' },
      );
      return;
    }
    let input: unknown;
    try {
      input = body.text.length === 0 ? {} : JSON.parse(body.text);
    } catch {
      send(response, 400, errorEnvelope('invalid-json', 'The request body is not JSON.'), JSON_TYPE);
      return;
    }
    const result = await core.dispatch(name, input);
    send(response, 200, JSON.stringify(result), JSON_TYPE);
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

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
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
    const url = parseOriginFormTarget(request.url);
    if (url === null) {
      send(response, 400, 'Anybrain answers only paths on its own address (a target starting with `/`).');
      return;
    }
    if (url.searchParams.has(RETIRED_TOKEN_PARAMETER)) {
      send(response, 401, RETIRED_TOKEN_MESSAGE);
      return;
    }
    const isApiPath = url.pathname === API_PATH || url.pathname.startsWith(`${API_PATH}/`);
    if (!isApiPath) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        send(response, 405, 'Method not allowed.');
        return;
      }
      // The window's files hold no data: a page without the token can load, and asks for the printed address.
      serveStatic(url.pathname, response);
      return;
    }
    if (!hasBearerToken(request)) {
      send(response, 401, MISSING_TOKEN_MESSAGE);
      return;
    }
    if (url.pathname.startsWith(`${WEB_COMMAND_PATH}/`)) {
      if (request.method !== 'POST') {
        send(response, 405, 'Commands are POST requests.');
        return;
      }
      await handleCommand(url.pathname.slice(WEB_COMMAND_PATH.length + 1), request, response);
      return;
    }
    if (url.pathname === WEB_EVENTS_PATH) {
      if (request.method !== 'GET') {
        send(response, 405, 'The event stream is a GET request.');
        return;
      }
      handleEvents(request, response);
      return;
    }
    send(response, 404, 'Not found');
  };

  const server = createServer((request, response) => {
    // Wraps every handler, so a throw (sync or async) answers this request instead of ending the process.
    route(request, response).catch(() => {
      if (!response.headersSent) {
        send(response, 500, errorEnvelope('internal', 'The request failed inside Anybrain.'), JSON_TYPE, { Connection: 'close' });
      } else {
        response.destroy();
      }
    });
  });
  server.on('clientError', answerClientError);

  const unsubscribe = core.onEvent((event: ApiEvent) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of sseClients) client.write(frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    launchUrl: webLaunchUrl(origin, token),
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
