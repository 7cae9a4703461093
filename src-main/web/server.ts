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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_COMMAND_BODY_BYTES, WEB_COMMAND_PATH, WEB_EVENTS_PATH, type ApiEvent } from '../../src-shared/api';
import { bearerHeaderValue, webLaunchUrl } from '../../src-shared/web-launch';
import type { Core } from '../core/core-types';
import { readBody } from './body';
import { parseOriginFormTarget } from './request-target';
import { answerClientError, errorEnvelope, JSON_TYPE, SECURITY_HEADERS, send } from './responses';
import { serveStatic } from './static-files';

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

const MISSING_TOKEN_MESSAGE =
  'Open the address `anybrain serve` printed: it carries this launch\u2019s access token after `#token=`, and the page sends it as a bearer token.';
const RETIRED_TOKEN_MESSAGE =
  'Anybrain no longer takes its token in `?token=`. Open the address `anybrain serve` printed this time: it looks like http://127.0.0.1:PORT/#token=\u2026';

function sameSecret(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
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
      serveStatic(staticDir, url.pathname, response);
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
