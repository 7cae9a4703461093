/**
 * The Gemini API as gemini speaks it: `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`, every `data:` line a
 * whole `GenerateContentResponse` (lines end in `\r\n\r\n`, no `[DONE]`), errors as
 * `{"error":{"code","message","status"}}`.
 */
import { geminiThoughtSignature } from './derived-tokens';
import { end, delta, hasBearerOrHeader, isRecord, listField, type ErrorReply, type FakeWire, type RefusalSizes, type ReplyContext, type StreamEvent } from './fake-wire';
import { checkGeminiRequest, userText } from './gemini-generate-content-rules';
import { modelListLookup } from './model-lists';
import type { ConversationEntry } from './script';

const STREAM_PATH = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;
const WHOLE_PATH = /^\/v1beta\/models\/([^/:]+):generateContent$/;

const STATUS_ERRORS: Readonly<Record<number, readonly [status: string, message: string]>> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'models/unknown is not found for API version v1beta, or is not supported for generateContent.'],
  429: ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'],
  500: ['INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
};

export function geminiErrorBody(code: number, status: string, message: string): unknown {
  return { error: { code, message, status } };
}

/** Figures for `[too-large]`: a request over Gemini's 1,048,576-token window. */
const TYPICAL_SIZES: RefusalSizes = { limitTokens: 1_048_576, requestTokens: 1_200_000 };

function errorReply(code: number, message?: string): ErrorReply {
  const [status, defaultMessage] = STATUS_ERRORS[code] ?? [code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT', `Error ${code}`];
  return { status: code, body: geminiErrorBody(code, status, message ?? defaultMessage) };
}

/** Gemini frames its SSE with CRLF line ends. */
function dataLine(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\r\n\r\n`;
}

function responseId(context: ReplyContext): string {
  return `fake${String(context.sequence).padStart(4, '0')}`;
}

/** Gemini 3 signs every step that calls functions; any model signs what follows its shown thoughts. */
function thoughtSignature(context: ReplyContext): string | null {
  const { plan } = context;
  const signs = plan.reasoning !== '' || (plan.toolCalls.length > 0 && (context.route.pathModel ?? '').startsWith('gemini-3'));
  return signs ? geminiThoughtSignature(context.route.pathModel ?? '', responseId(context)) : null;
}

/** The calls of the reply as parts; only the first carries the signature, as Gemini sends parallel calls. */
function functionCallParts(context: ReplyContext): unknown[] {
  const signature = thoughtSignature(context);
  return context.plan.toolCalls.map((call, callIndex) => ({
    functionCall: { name: call.name, args: call.input },
    ...(callIndex === 0 && signature !== null ? { thoughtSignature: signature } : {}),
  }));
}

/** How the last chunk ends the candidate: `STOP`, or a refusal as a safety stop with its `finishMessage`. */
function finishFields(context: ReplyContext): Record<string, unknown> {
  const { declined } = context.plan;
  if (declined === null) return { finishReason: 'STOP' };
  return { finishReason: 'SAFETY', ...(declined.explanation === null ? {} : { finishMessage: declined.explanation }) };
}

function responseChunk(context: ReplyContext, parts: readonly unknown[], final: boolean): unknown {
  const { plan } = context;
  const thoughtsTokenCount = plan.reasoningChunks.length;
  const candidatesTokenCount = plan.outputTokens - thoughtsTokenCount;
  return {
    candidates: [{ content: { parts, role: 'model' }, ...(final ? finishFields(context) : {}), index: 0 }],
    usageMetadata: {
      promptTokenCount: context.inputTokens,
      // Gemini names the cached part only when there is one.
      ...(context.cachedTokens > 0 ? { cachedContentTokenCount: context.cachedTokens } : {}),
      ...(final ? { candidatesTokenCount } : {}),
      totalTokenCount: context.inputTokens + (final ? plan.outputTokens : 0),
      ...(final && thoughtsTokenCount > 0 ? { thoughtsTokenCount } : {}),
    },
    modelVersion: plan.model,
    responseId: responseId(context),
  };
}

/** `functionResponse.response` as text: the conventional `output`/`result`/`content`/`error` key, else the whole object. */
function answerText(functionResponse: Record<string, unknown>): string {
  const response = isRecord(functionResponse.response) ? functionResponse.response : {};
  const key = ['output', 'result', 'content', 'error'].find((candidate) => response[candidate] !== undefined);
  const value = key === undefined ? response : response[key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const geminiGenerateContentWire: FakeWire = {
  wire: 'gemini-generate-content',

  modelLookup: modelListLookup('/v1beta/models'),

  route(method, path) {
    if (method !== 'POST') return null;
    const streamed = STREAM_PATH.exec(path);
    if (streamed) return { streaming: true, pathModel: decodeURIComponent(streamed[1] ?? '') };
    const whole = WHOLE_PATH.exec(path);
    if (whole) return { streaming: false, pathModel: decodeURIComponent(whole[1] ?? '') };
    return null;
  },

  hasCredentials: (headers, query) => hasBearerOrHeader(headers, 'x-goog-api-key') || (query.get('key') ?? '') !== '',
  missingCredentials: {
    status: 403,
    body: geminiErrorBody(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    ),
  },
  notFound: () => errorReply(404, 'Not Found'),
  invalidJson: () => errorReply(400, 'Invalid JSON payload received.'),

  checkRequest(body, checks) {
    const problem = checkGeminiRequest(body, checks.route.pathModel ?? '');
    return problem === null ? null : errorReply(400, problem);
  },

  systemText(body) {
    // The REST API takes both spellings.
    const instruction = isRecord(body.systemInstruction) ? body.systemInstruction : isRecord(body.system_instruction) ? body.system_instruction : null;
    const parts = instruction === null ? [] : listField(instruction, 'parts');
    return parts.flatMap((part) => (isRecord(part) && typeof part.text === 'string' ? [part.text] : [])).join('\n');
  },

  conversation(body) {
    const entries: ConversationEntry[] = [];
    for (const content of listField(body, 'contents')) {
      if (!isRecord(content) || (content.role !== undefined && content.role !== 'user')) continue;
      for (const part of listField(content, 'parts')) {
        if (isRecord(part) && isRecord(part.functionResponse)) entries.push({ kind: 'tool-answer', text: answerText(part.functionResponse) });
      }
      const text = userText(content.parts);
      if (text !== '') entries.push({ kind: 'user-text', text });
    }
    return entries;
  },

  declaredToolNames(body) {
    // The REST API takes both `functionDeclarations` and the proto's `function_declarations`.
    return listField(body, 'tools').flatMap((tool) => {
      if (!isRecord(tool)) return [];
      const declarations = [...listField(tool, 'functionDeclarations'), ...listField(tool, 'function_declarations')];
      return declarations.flatMap((declaration) => (isRecord(declaration) && typeof declaration.name === 'string' ? [declaration.name] : []));
    });
  },

  reasoningSupport: () => ({ shown: true, beforeToolCalls: false }),
  requestedModel: (_body, route) => route.pathModel ?? '',
  statusError: (status, message) => errorReply(status, message),
  tooLarge(_brain, sizes) {
    const { limitTokens, requestTokens } = sizes ?? TYPICAL_SIZES;
    return errorReply(400, `The input token count (${requestTokens}) exceeds the maximum number of tokens allowed (${limitTokens}).`);
  },
  responseHeaders: () => ({}),
  streamContentType: 'text/event-stream',

  streamEvents(context) {
    const { plan } = context;
    const events: StreamEvent[] = [
      ...plan.reasoningChunks.map((piece) => delta(dataLine(responseChunk(context, [{ text: piece, thought: true }], false)))),
      ...plan.chunks.map((piece) => delta(dataLine(responseChunk(context, [{ text: piece }], false)))),
    ];
    if (plan.toolCalls.length > 0) {
      // The Gemini API sends each call whole, with the finish reason, in one chunk (see the recorded streams).
      events.push(end(dataLine(responseChunk(context, functionCallParts(context), true))));
    } else if (plan.declined !== null) {
      // "When streaming, content is empty if content filters blocks the output" (the FinishReason.SAFETY reference).
      events.push(end(dataLine(responseChunk(context, [], true))));
    } else {
      // Without calls, the signature rides on the last part of the reply.
      const signature = thoughtSignature(context);
      events.push(end(dataLine(responseChunk(context, [{ text: '', ...(signature === null ? {} : { thoughtSignature: signature }) }], true))));
    }
    return events;
  },

  streamError: () => dataLine(geminiErrorBody(500, 'INTERNAL', STATUS_ERRORS[500]?.[1] ?? 'Internal error')),

  wholeReply(context) {
    const { plan } = context;
    const signature = thoughtSignature(context);
    const parts: unknown[] = [];
    if (plan.reasoning !== '') parts.push({ text: plan.reasoning, thought: true });
    if (plan.toolCalls.length > 0) parts.push(...functionCallParts(context));
    else parts.push({ text: plan.text, ...(signature === null ? {} : { thoughtSignature: signature }) });
    return responseChunk(context, parts, true);
  },

  storedItemIds: () => [],
};
