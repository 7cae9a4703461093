/**
 * Fake brains: one loopback HTTP server that speaks every brain's streaming protocol from scripts, checks each request
 * against the wire's rules and records it. Brains are told apart by the first path segment
 * (`/claude/v1/messages`, `/kimi/v1/chat/completions`, …) so one server serves all seven.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BRAINS, isBrainId, type BrainId, type WireId } from '../../src-shared/brains';
import { anthropicMessagesWire } from './anthropic-messages';
import { chatCompletionsWire } from './chat-completions';
import { estimateTokens, isRecord, type ErrorReply, type FakeWire, type ReplyContext, type RequestHeaders } from './fake-wire';
import { geminiGenerateContentWire } from './gemini-generate-content';
import { ollamaChatWire } from './ollama-chat';
import { openAiResponsesWire } from './openai-responses';
import { planReply } from './script';

export interface RecordedRequest {
  readonly brain: BrainId;
  readonly wire: WireId;
  readonly method: string;
  /** Path and query as received, with a `key` query parameter redacted. */
  readonly path: string;
  /** Lower-case header names; credential values replaced by `[redacted]`. */
  readonly headers: RequestHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;
  readonly receivedAt: string;
}

export interface FakeBrains {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  /** The base URL to configure for a brain, in the shape that brain's client expects. */
  baseUrlFor(brain: BrainId): string;
  requests(): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

export interface FakeBrainsOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
}

const WIRES: Readonly<Record<WireId, FakeWire>> = {
  'anthropic-messages': anthropicMessagesWire,
  'chat-completions': chatCompletionsWire,
  'openai-responses': openAiResponsesWire,
  'gemini-generate-content': geminiGenerateContentWire,
  'ollama-chat': ollamaChatWire,
};

const REDACTED_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);
const REDACTED = '[redacted]';

/** Where each brain's client appends its own path (`/v1/messages`, `/chat/completions`, `/v1beta/models/…`, `/api/chat`). */
function basePathFor(brain: BrainId): string {
  const wire = BRAINS[brain].wire;
  switch (wire) {
    case 'anthropic-messages':
    case 'gemini-generate-content':
    case 'ollama-chat':
      return `/${brain}`;
    case 'chat-completions':
    case 'openai-responses':
      return `/${brain}/v1`;
    default: {
      const unknownWire: never = wire;
      throw new Error(`No base path for wire ${String(unknownWire)}`);
    }
  }
}

export async function startFakeBrains(options: FakeBrainsOptions = {}): Promise<FakeBrains> {
  let recorded: RecordedRequest[] = [];
  let sequence = 0;
  const liveResponses = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    liveResponses.add(response);
    response.on('close', () => liveResponses.delete(response));
    handle(request, response).catch((thrown: unknown) => {
      if (!response.headersSent) sendJson(response, { status: 500, body: { error: String(thrown) } }, {});
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    const rawBody = await readBody(request);

    if (url.pathname === '/_fake/requests' && method === 'GET') {
      sendJson(response, { status: 200, body: recorded }, {});
      return;
    }
    if (url.pathname === '/_fake/reset' && method === 'POST') {
      reset();
      sendJson(response, { status: 200, body: { ok: true } }, {});
      return;
    }

    const [, brainSegment = '', ...rest] = url.pathname.split('/');
    if (!isBrainId(brainSegment)) {
      sendJson(response, { status: 404, body: { error: `No fake brain at ${url.pathname}` } }, {});
      return;
    }
    const brain = brainSegment;
    const wire = WIRES[BRAINS[brain].wire];
    const headers = flattenHeaders(request);
    const parsedBody = parseJson(rawBody);
    recorded.push({
      brain,
      wire: wire.wire,
      method,
      path: redactedPath(url),
      headers: redactHeaders(headers),
      body: parsedBody.ok ? parsedBody.value : rawBody,
      receivedAt: new Date().toISOString(),
    });

    const wirePath = `/${rest.join('/')}`;
    const body = parsedBody.ok && isRecord(parsedBody.value) ? parsedBody.value : {};
    const route = wire.route(method, wirePath, body);
    sequence += 1;
    const extraHeaders = wire.responseHeaders(sequence);
    if (route === null) {
      sendJson(response, wire.notFound(wirePath), extraHeaders);
      return;
    }
    if (!wire.hasCredentials(headers, url.searchParams)) {
      sendJson(response, wire.missingCredentials, extraHeaders);
      return;
    }
    if (!parsedBody.ok || !isRecord(parsedBody.value)) {
      sendJson(response, wire.invalidJson(), extraHeaders);
      return;
    }
    const violation = wire.checkRequest(body, route);
    if (violation !== null) {
      sendJson(response, violation, extraHeaders);
      return;
    }

    const plan = planReply({ label: BRAINS[brain].label, userText: wire.lastUserText(body), requestedModel: wire.requestedModel(body, route) });
    if (plan.failure !== null) {
      sendJson(response, plan.failure.kind === 'status' ? wire.statusError(plan.failure.status) : wire.tooLarge(), extraHeaders);
      return;
    }
    const context: ReplyContext = {
      plan,
      body,
      sequence,
      createdAt: Math.floor(Date.now() / 1000),
      inputTokens: estimateTokens(body.messages ?? body.input ?? body.contents),
    };
    if (!route.streaming) {
      sendJson(response, { status: 200, body: wire.wholeReply(context) }, extraHeaders);
      return;
    }
    await streamReply(wire, context, request, response, extraHeaders);
  }

  function reset(): void {
    recorded = [];
    sequence = 0;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrlFor: (brain) => `${url}${basePathFor(brain)}`,
    requests: () => [...recorded],
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const response of liveResponses) response.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function streamReply(
  wire: FakeWire,
  context: ReplyContext,
  request: IncomingMessage,
  response: ServerResponse,
  extraHeaders: Readonly<Record<string, string>>,
): Promise<void> {
  response.writeHead(200, { 'content-type': wire.streamContentType, 'cache-control': 'no-cache', connection: 'keep-alive', ...extraHeaders });
  const { plan } = context;
  await write(response, wire.streamOpening(context));
  const chunkCount = plan.ending === 'complete' ? plan.chunks.length : plan.chunksBeforeEnding;
  for (let index = 0; index < chunkCount; index += 1) {
    if (index > 0) await sleep(plan.delayMs);
    // The client stopped reading (a Stop button, an aborted test): stop producing.
    if (response.destroyed) return;
    await write(response, wire.streamTextDelta(context, plan.chunks[index] ?? '', index));
  }
  switch (plan.ending) {
    case 'complete':
      await write(response, wire.streamClosing(context));
      response.end();
      return;
    case 'error-midstream':
      await write(response, wire.streamError(context));
      response.end();
      return;
    case 'drop':
      // Give the written text time to leave before the socket goes without the terminal event.
      await sleep(plan.delayMs);
      request.socket.destroy();
      return;
    default: {
      const unknownEnding: never = plan.ending;
      throw new Error(`Unknown ending ${String(unknownEnding)}`);
    }
  }
}

function write(response: ServerResponse, text: string): Promise<void> {
  if (text === '' || response.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    response.write(text, () => resolve());
  });
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function sendJson(response: ServerResponse, reply: ErrorReply, extraHeaders: Readonly<Record<string, string>>): void {
  const text = JSON.stringify(reply.body);
  response.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extraHeaders });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function redactHeaders(headers: RequestHeaders): RequestHeaders {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, REDACTED_HEADERS.has(name) ? REDACTED : value]));
}

/** Gemini clients may pass the key as `?key=`: it must not reach the recording either. */
function redactedPath(url: URL): string {
  return `${url.pathname}${url.search.replace(/([?&]key=)[^&]*/, `$1${REDACTED}`)}`;
}
