/**
 * The Gemini API as gemini speaks it: `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`, every `data:` line a
 * whole `GenerateContentResponse` (lines end in `\r\n\r\n`, no `[DONE]`), errors as
 * `{"error":{"code","message","status"}}`.
 */
import { hasBearerOrHeader, isRecord, type ErrorReply, type FakeWire, type ReplyContext } from './fake-wire';

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

function errorReply(code: number, message?: string): ErrorReply {
  const [status, defaultMessage] = STATUS_ERRORS[code] ?? [code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT', `Error ${code}`];
  return { status: code, body: geminiErrorBody(code, status, message ?? defaultMessage) };
}

/** Gemini frames its SSE with CRLF line ends. */
function dataLine(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\r\n\r\n`;
}

function responseChunk(context: ReplyContext, text: string, final: boolean): unknown {
  const candidatesTokenCount = context.plan.chunks.length;
  return {
    candidates: [{ content: { parts: [{ text }], role: 'model' }, ...(final ? { finishReason: 'STOP' } : {}), index: 0 }],
    usageMetadata: {
      promptTokenCount: context.inputTokens,
      ...(final ? { candidatesTokenCount } : {}),
      totalTokenCount: context.inputTokens + (final ? candidatesTokenCount : 0),
    },
    modelVersion: context.plan.model,
    responseId: `fake${String(context.sequence).padStart(4, '0')}`,
  };
}

export const geminiGenerateContentWire: FakeWire = {
  wire: 'gemini-generate-content',

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

  checkRequest(body, route) {
    const problem = checkGeminiRequest(body, route.pathModel ?? '');
    return problem === null ? null : errorReply(400, problem);
  },

  lastUserText(body) {
    const contents: readonly unknown[] = Array.isArray(body.contents) ? body.contents : [];
    for (const content of [...contents].reverse()) {
      if (!isRecord(content) || (content.role !== undefined && content.role !== 'user')) continue;
      const text = textOfParts(content.parts);
      if (text !== '') return text;
    }
    return '';
  },

  requestedModel: (_body, route) => route.pathModel ?? '',
  statusError: (status) => errorReply(status),
  tooLarge: () => errorReply(400, 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'),
  responseHeaders: () => ({}),
  streamContentType: 'text/event-stream',
  streamOpening: () => '',
  streamTextDelta: (context, text) => dataLine(responseChunk(context, text, false)),
  streamClosing: (context) => dataLine(responseChunk(context, '', true)),
  streamError: () => dataLine(geminiErrorBody(500, 'INTERNAL', STATUS_ERRORS[500]?.[1] ?? 'Internal error')),
  wholeReply: (context) => responseChunk(context, context.plan.text, true),
};

/** Gemini's own 400 texts for the rules a replay can break; Gemini 3 also requires its thought signatures back. */
export function checkGeminiRequest(body: Record<string, unknown>, model: string): string | null {
  if (!Array.isArray(body.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  const contents: readonly unknown[] = body.contents;
  for (const [index, content] of contents.entries()) {
    if (!isRecord(content)) return `Invalid value at 'contents[${index}]'`;
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') return 'Please use a valid role: user, model.';
    if (!Array.isArray(content.parts) || content.parts.length === 0) return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`;
    const calls = countParts(content.parts, 'functionCall');
    if (calls === 0) continue;
    const next = contents[index + 1];
    if (next === undefined) continue;
    const responses = isRecord(next) ? countParts(next.parts, 'functionResponse') : 0;
    if (responses === 0) return 'Please ensure that function response turn comes immediately after a function call turn.';
    if (responses !== calls) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }
  return model.startsWith('gemini-3') ? checkThoughtSignatures(contents) : null;
}

/** Gemini 3 validates the current turn only: each model step's first functionCall part must carry a thoughtSignature. */
function checkThoughtSignatures(contents: readonly unknown[]): string | null {
  const turnStart = contents.findLastIndex((content) => isRecord(content) && content.role !== 'model' && textOfParts(content.parts) !== '');
  for (const [index, content] of contents.entries()) {
    if (index <= turnStart || !isRecord(content) || content.role !== 'model' || !Array.isArray(content.parts)) continue;
    const firstCall: unknown = content.parts.find((part) => isRecord(part) && isRecord(part.functionCall));
    if (!isRecord(firstCall) || typeof firstCall.thoughtSignature === 'string') continue;
    const name = isRecord(firstCall.functionCall) ? String(firstCall.functionCall.name) : '';
    return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
  }
  return null;
}

function countParts(parts: unknown, key: string): number {
  return Array.isArray(parts) ? parts.filter((part) => isRecord(part) && isRecord(part[key])).length : 0;
}

function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((part): part is { text: string } => isRecord(part) && typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text)
    .join('');
}
