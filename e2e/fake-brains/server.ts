/**
 * Fake brains: one loopback HTTP server that speaks every brain's streaming protocol from scripts, checks each request
 * against the wire's rules and records it. Brains are told apart by the first path segment
 * (`/claude/v1/messages`, `/kimi/v1/chat/completions`, …) so one server serves all seven.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BRAINS, isBrainId, type BrainId, type WireId } from '../../src-shared/brains';
import { anthropicMessagesWire } from './anthropic-messages';
import { chatCompletionsWire } from './chat-completions';
import { estimateTokens, isRecord, readPromptCache, type ErrorReply, type FakeWire, type ReplyContext, type RequestHeaders, type ServerMemory } from './fake-wire';
import { geminiGenerateContentWire } from './gemini-generate-content';
import { ollamaChatWire } from './ollama-chat';
import { DEFAULT_OPENAI_SPEC_PATH, openAiSpecValidator } from './openai-spec';
import { openAiResponsesWire } from './openai-responses';
import { SUMMARY_REQUEST_MARKER } from '../../src-main/core/context/summary-prompt';
import { calledToolNames, continuationTranscript, conversationTail, KEY_SHAPED_CANARY, planReply } from './script';

export interface RecordedRequest {
  readonly brain: BrainId;
  readonly wire: WireId;
  readonly method: string;
  /** Path and query as received, with a `key` query parameter redacted. */
  readonly path: string;
  /** Lower-case header names; credential values replaced by `[redacted]`. */
  readonly headers: RequestHeaders;
  /**
   * The SHA-256 (hex) of the key the request carried (a bearer token, a key header or Gemini's `?key=`), or null: a
   * test can tell which key was sent without the recording holding any key.
   */
  readonly keySha256: string | null;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;
  readonly receivedAt: string;
}

/** A request the fake refused the way its provider would: a broken wire rule, bad JSON, a missing key or a wrong path. */
export interface RuleViolation {
  readonly brain: BrainId;
  /** Path and query as received, as in `RecordedRequest`. */
  readonly path: string;
  readonly status: number;
  /** The provider's error text, as the fake sent it. */
  readonly message: string;
}

export interface FakeBrains {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  /** The base URL to configure for a brain, in the shape that brain's client expects. */
  baseUrlFor(brain: BrainId): string;
  requests(): RecordedRequest[];
  /** Every refusal since the start or the last reset; a run that built every request right leaves this empty. */
  violations(): RuleViolation[];
  /** Forgets requests, violations and stored items, and restarts the ids. */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeBrainsOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /**
   * OpenAI's OpenAPI document, which OpenAI wire requests are validated against (loaded on the first such request);
   * null turns that validation off. Defaults to the shared reference copy beside the repository.
   */
  readonly openAiSpecPath?: string | null;
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
  let violations: RuleViolation[] = [];
  let sequence = 0;
  const memory: ServerMemory = { storedItemIds: new Set(), promptCache: new Map() };
  const specPath = options.openAiSpecPath === undefined ? DEFAULT_OPENAI_SPEC_PATH : options.openAiSpecPath;
  const openAiSpec = specPath === null ? null : openAiSpecValidator(specPath);
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
    if (url.pathname === '/_fake/violations' && method === 'GET') {
      sendJson(response, { status: 200, body: violations }, {});
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
      keySha256: keyFingerprint(headers, url),
      body: parsedBody.ok ? parsedBody.value : rawBody,
      receivedAt: new Date().toISOString(),
    });

    const wirePath = `/${rest.join('/')}`;
    const body = parsedBody.ok && isRecord(parsedBody.value) ? parsedBody.value : {};
    const refuseWith = (reply: ErrorReply, headers: Readonly<Record<string, string>>): void => {
      violations.push({ brain, path: redactedPath(url), status: reply.status, message: errorMessageOf(reply.body) });
      sendJson(response, reply, headers);
    };
    const lookup = wire.modelLookup?.(method, wirePath, brain) ?? null;
    if (lookup !== null) {
      // Not a reply: no sequence number, so no reply headers either.
      const problem = !wire.hasCredentials(headers, url.searchParams)
        ? wire.missingCredentials
        : // A list is a GET with no body; only a lookup that posts a question needs a JSON object.
          method !== 'GET' && (!parsedBody.ok || !isRecord(parsedBody.value))
          ? wire.invalidJson()
          : lookup.check(body);
      if (problem === null) sendJson(response, { status: 200, body: lookup.answer(body) }, {});
      else refuseWith(problem, {});
      return;
    }
    const route = wire.route(method, wirePath, body);
    sequence += 1;
    const extraHeaders = wire.responseHeaders(sequence);
    const refuse = (reply: ErrorReply): void => refuseWith(reply, extraHeaders);
    if (route === null) {
      refuse(wire.notFound(wirePath));
      return;
    }
    if (!wire.hasCredentials(headers, url.searchParams)) {
      refuse(wire.missingCredentials);
      return;
    }
    if (!parsedBody.ok || !isRecord(parsedBody.value)) {
      refuse(wire.invalidJson());
      return;
    }
    const violation = wire.checkRequest(body, { route, memory, openAiSpec });
    if (violation !== null) {
      refuse(violation);
      return;
    }

    const entries = wire.conversation(body);
    const tail = conversationTail(entries);
    const systemText = wire.systemText(body);
    const plan = planReply({
      label: BRAINS[brain].label,
      userText: tail.userText,
      ...(tail.userText.startsWith(SUMMARY_REQUEST_MARKER) ? { summarised: continuationTranscript(entries, calledToolNames(body)) } : {}),
      toolAnswers: tail.toolAnswers,
      requestedModel: wire.requestedModel(body, route),
      declaredTools: wire.declaredToolNames(body),
      reasoning: wire.reasoningSupport(body, route),
      systemText,
      // The whole body, so the system prompt and the tool declarations count against a `[window:N]` as they would.
      requestTokens: estimateTokens(body),
    });
    const history = body.messages ?? body.input ?? body.contents;
    const context: ReplyContext = {
      brain,
      plan,
      body,
      route,
      sequence,
      createdAt: Math.floor(Date.now() / 1000),
      inputTokens: estimateTokens(history),
      cachedTokens: plan.failure === null ? readPromptCache(memory, brain, plan.model, history) : 0,
    };
    // A scripted failure is the test's request, not a broken rule: it is not a violation.
    switch (plan.failure?.kind) {
      case undefined:
        break;
      case 'status': {
        const { status, retryAfterSeconds } = plan.failure;
        sendJson(response, wire.statusError(status), { ...extraHeaders, ...(retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) }) });
        return;
      }
      case 'too-large':
        sendJson(response, wire.tooLarge(brain, plan.failure.sizes), extraHeaders);
        return;
      case 'echo-key':
        // What a careless proxy or self-hosted server answers: the key it was sent, and a key-shaped string beside it.
        sendJson(response, wire.statusError(401, `Incorrect API key provided: ${presentedKey(headers, url) ?? 'none'}. Keys on this project: ${KEY_SHAPED_CANARY}.`), extraHeaders);
        return;
      case 'json-instead':
        // What a proxy that does not stream would pass on: the whole reply as one JSON body, with HTTP 200.
        sendJson(response, { status: 200, body: wire.wholeReply(context) }, extraHeaders);
        return;
      default: {
        const unknownFailure: never = plan.failure;
        throw new Error(`Unknown failure ${JSON.stringify(unknownFailure)}`);
      }
    }
    if (!route.streaming) {
      sendJson(response, { status: 200, body: wire.wholeReply(context) }, extraHeaders);
      remember(wire, context);
      return;
    }
    if (await streamReply(wire, context, request, response, extraHeaders)) remember(wire, context);
  }

  /** What the provider would keep from a completed reply, for the requests that refer to it later. */
  function remember(wire: FakeWire, context: ReplyContext): void {
    for (const id of wire.storedItemIds(context)) memory.storedItemIds.add(id);
  }

  function reset(): void {
    recorded = [];
    violations = [];
    sequence = 0;
    memory.storedItemIds.clear();
    memory.promptCache.clear();
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
    violations: () => [...violations],
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const response of liveResponses) response.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Streams the reply; true when it went out complete. */
async function streamReply(
  wire: FakeWire,
  context: ReplyContext,
  request: IncomingMessage,
  response: ServerResponse,
  extraHeaders: Readonly<Record<string, string>>,
): Promise<boolean> {
  response.writeHead(200, { 'content-type': wire.streamContentType, 'cache-control': 'no-cache', connection: 'keep-alive', ...extraHeaders });
  const { plan } = context;
  const events = wire.streamEvents(context);
  // The failure endings cut the stream after half of its deltas, and never send its end.
  const deltaCount = events.filter((event) => event.kind === 'delta').length;
  const deltasBeforeEnding = plan.ending === 'complete' ? deltaCount : Math.ceil(deltaCount / 2);
  let deltasSent = 0;
  let eventsSent = 0;
  for (const event of events) {
    if (plan.ending !== 'complete' && (event.kind === 'end' || (event.kind === 'delta' && deltasSent === deltasBeforeEnding))) break;
    if (event.kind === 'delta') {
      if (deltasSent > 0) await sleep(plan.delayMs);
      deltasSent += 1;
    }
    // The client stopped reading (a Stop button, an aborted test): stop producing.
    if (response.destroyed) return false;
    await write(response, event.bytes);
    eventsSent += 1;
  }
  switch (plan.ending) {
    case 'complete':
      response.end();
      return true;
    case 'error-midstream':
      await write(response, wire.streamError(context, eventsSent));
      response.end();
      return false;
    case 'drop':
      // Give the written text time to leave before the socket goes without the terminal event.
      await sleep(plan.delayMs);
      request.socket.destroy();
      return false;
    case 'stall':
      // Nothing more, the connection left open, until the client gives up (or the server closes).
      if (!response.destroyed) await new Promise<void>((resolve) => response.once('close', () => resolve()));
      return false;
    default: {
      const unknownEnding: never = plan.ending;
      throw new Error(`Unknown ending ${String(unknownEnding)}`);
    }
  }
}

/** The message inside any of the five wires' error bodies. */
function errorMessageOf(body: unknown): string {
  if (!isRecord(body)) return String(body);
  if (typeof body.error === 'string') return body.error;
  if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
  return JSON.stringify(body);
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

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The key a request carried, wherever its wire puts it. */
function presentedKey(headers: RequestHeaders, url: URL): string | null {
  const bearer = /^Bearer\s+(\S+)$/.exec(headers.authorization ?? '')?.[1];
  return bearer ?? headers['x-api-key'] ?? headers['x-goog-api-key'] ?? headers['api-key'] ?? url.searchParams.get('key') ?? null;
}

function keyFingerprint(headers: RequestHeaders, url: URL): string | null {
  const key = presentedKey(headers, url);
  return key ? sha256Hex(key) : null;
}

/** Gemini clients may pass the key as `?key=`: it must not reach the recording either. */
function redactedPath(url: URL): string {
  return `${url.pathname}${url.search.replace(/([?&]key=)[^&]*/, `$1${REDACTED}`)}`;
}
