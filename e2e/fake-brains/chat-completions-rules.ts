/**
 * Request rules of Chat Completions, with OpenAI's own 400 texts (Moonshot's Kimi endpoint follows them), so a request
 * the app builds wrongly fails here the way it would in production.
 */
import { isRecord } from './fake-wire';
import { OPENAI_IMAGE_URL_EXPECTED, openAiImageUrlProblem } from './inline-media';

export interface ChatCompletionsViolation {
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
}

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];
/** Kimi K2.5 and K2.6 think unless the request sends `thinking: {type: "disabled"}`. */
const THINKING_BY_DEFAULT = /^kimi-k2\.[56]/;

export function kimiThinkingEnabled(body: Record<string, unknown>): boolean {
  if (isRecord(body.thinking)) return body.thinking.type === 'enabled';
  return body.thinking === undefined && typeof body.model === 'string' && THINKING_BY_DEFAULT.test(body.model);
}

function violation(message: string, param: string | null = null, code: string | null = null): ChatCompletionsViolation {
  return { message, param, code };
}

export function checkChatCompletionsRequest(body: Record<string, unknown>): ChatCompletionsViolation | null {
  if (typeof body.model !== 'string' || body.model === '') return violation('you must provide a model parameter');
  if (body.messages === undefined) return violation("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(body.messages)) {
    return violation(`Invalid type for 'messages': expected an array, but got ${describeType(body.messages)} instead.`, 'messages', 'invalid_type');
  }
  if (body.messages.length === 0) {
    return violation("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  }
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) {
    return violation("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options', null);
  }
  const messages: readonly unknown[] = body.messages;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return violation(`Invalid type for 'messages[${index}]': expected an object, but got ${describeType(message)} instead.`, `messages[${index}]`, 'invalid_type');
    if (message.role === undefined) return violation(`Missing required parameter: 'messages[${index}].role'.`, `messages[${index}].role`, 'missing_required_parameter');
    if (typeof message.role !== 'string' || !ROLES.includes(message.role)) {
      return violation(
        `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${index}].role`,
        'invalid_value',
      );
    }
    const problem = checkMessage(message, index);
    if (problem !== null) return problem;
  }
  return checkToolPairing(messages) ?? (kimiThinkingEnabled(body) ? checkReasoningKept(messages) : null);
}

/** With thinking on, Kimi wants each tool-calling assistant message's own reasoning back. */
function checkReasoningKept(messages: readonly unknown[]): ChatCompletionsViolation | null {
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0) continue;
    if (typeof message.reasoning_content !== 'string' || message.reasoning_content === '') {
      return violation(`thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`);
    }
  }
  return null;
}

/** An inline image is a base64 data URL of an image. */
function checkImageParts(content: readonly unknown[], where: string): ChatCompletionsViolation | null {
  for (const [partIndex, part] of content.entries()) {
    if (!isRecord(part) || part.type !== 'image_url') continue;
    const url = isRecord(part.image_url) ? part.image_url.url : undefined;
    const problem = openAiImageUrlProblem(url);
    if (problem !== null) {
      const param = `${where}.content[${partIndex}].image_url.url`;
      return violation(`Invalid image URL: '${param}'. ${OPENAI_IMAGE_URL_EXPECTED} ${problem}`, param, 'invalid_value');
    }
  }
  return null;
}

function checkMessage(message: Record<string, unknown>, index: number): ChatCompletionsViolation | null {
  const where = `messages[${index}]`;
  const hasToolCalls = message.role === 'assistant' && message.tool_calls !== undefined && message.tool_calls !== null;
  if (message.content === undefined && !hasToolCalls) return violation(`Missing required parameter: '${where}.content'.`, `${where}.content`, 'missing_required_parameter');
  if (message.content !== undefined && message.content !== null && typeof message.content !== 'string' && !Array.isArray(message.content)) {
    return violation(`Invalid type for '${where}.content': expected one of a string or array of objects, but got ${describeType(message.content)} instead.`, `${where}.content`, 'invalid_type');
  }
  if (message.role === 'user' && Array.isArray(message.content)) {
    const problem = checkImageParts(message.content, where);
    if (problem !== null) return problem;
  }
  if (!hasToolCalls) return null;
  if (!Array.isArray(message.tool_calls)) {
    return violation(`Invalid type for '${where}.tool_calls': expected an array, but got ${describeType(message.tool_calls)} instead.`, `${where}.tool_calls`, 'invalid_type');
  }
  for (const [callIndex, call] of message.tool_calls.entries()) {
    const callWhere = `${where}.tool_calls[${callIndex}]`;
    if (!isRecord(call)) return violation(`Invalid type for '${callWhere}': expected an object, but got ${describeType(call)} instead.`, callWhere, 'invalid_type');
    if (typeof call.id !== 'string') return violation(`Missing required parameter: '${callWhere}.id'.`, `${callWhere}.id`, 'missing_required_parameter');
    if (call.type !== 'function') return violation(`Missing required parameter: '${callWhere}.type'.`, `${callWhere}.type`, 'missing_required_parameter');
    if (!isRecord(call.function)) return violation(`Missing required parameter: '${callWhere}.function'.`, `${callWhere}.function`, 'missing_required_parameter');
    if (typeof call.function.name !== 'string') {
      return violation(`Missing required parameter: '${callWhere}.function.name'.`, `${callWhere}.function.name`, 'missing_required_parameter');
    }
    if (typeof call.function.arguments !== 'string') {
      return violation(
        `Invalid type for '${callWhere}.function.arguments': expected a string, but got ${describeType(call.function.arguments)} instead.`,
        `${callWhere}.function.arguments`,
        'invalid_type',
      );
    }
  }
  return null;
}

/** An assistant message with `tool_calls` must be followed by one `tool` message per call id, and only by those. */
function checkToolPairing(messages: readonly unknown[]): ChatCompletionsViolation | null {
  let openCalls: { readonly assistantIndex: number; readonly ids: Set<string>; readonly unanswered: Set<string> } | null = null;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    if (message.role === 'tool') {
      if (openCalls === null) {
        return violation("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${index}].role`);
      }
      if (typeof message.tool_call_id !== 'string') {
        return violation("Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.", `messages.[${index}].tool_call_id`);
      }
      if (!openCalls.ids.has(message.tool_call_id)) {
        return violation(`Invalid parameter: 'tool_call_id' of '${message.tool_call_id}' not found in 'tool_calls' of previous message.`, `messages.[${index}].tool_call_id`);
      }
      openCalls.unanswered.delete(message.tool_call_id);
      continue;
    }
    const unansweredProblem = unansweredCalls(openCalls);
    if (unansweredProblem !== null) return unansweredProblem;
    openCalls = null;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      const ids = message.tool_calls.map((call) => (isRecord(call) ? String(call.id) : ''));
      openCalls = { assistantIndex: index, ids: new Set(ids), unanswered: new Set(ids) };
    }
  }
  return unansweredCalls(openCalls);
}

function unansweredCalls(openCalls: { readonly assistantIndex: number; readonly unanswered: Set<string> } | null): ChatCompletionsViolation | null {
  if (openCalls === null || openCalls.unanswered.size === 0) return null;
  return violation(
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...openCalls.unanswered].join(', ')}`,
    `messages.[${openCalls.assistantIndex}].role`,
  );
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a decimal';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
