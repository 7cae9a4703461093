/**
 * Request rules of the Messages API, with Anthropic's own 400 texts, so a request the app builds wrongly fails here the
 * way it would in production. Stricter than Anthropic where WIRES.md asks for the safe variant: roles must alternate
 * (Anthropic merges consecutive turns, Anthropic-compatible servers such as GLM may not) and `system` stays top-level.
 */
import { isOwnAnthropicSignature } from './derived-tokens';
import { isRecord } from './fake-wire';
import { decodeStrictBase64, imageTypeOf } from './inline-media';

const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const USER_BLOCK_TYPES = ['text', 'image', 'document', 'search_result', 'tool_result'];
const ASSISTANT_BLOCK_TYPES = ['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use', 'web_search_tool_result'];
const ALL_BLOCK_TYPES = [...new Set([...USER_BLOCK_TYPES, ...ASSISTANT_BLOCK_TYPES])];

export const TOOLS_REQUIRED_MESSAGE = 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
/**
 * Claude 4.6 and later refuse a request that ends on the assistant's words; older models take it as a prefill. The app
 * never prefills, so the fake refuses it for every model.
 */
export const PREFILL_REFUSED_MESSAGE = 'This model does not support assistant message prefill. The conversation must end with a user message.';
/** Anthropic allows at most four prompt-cache breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

export function thinkingEnabled(body: Record<string, unknown>): boolean {
  return isRecord(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
}

/** Returns Anthropic's message for the first broken rule, or null. */
export function checkAnthropicRequest(body: Record<string, unknown>): string | null {
  if (body.model === undefined) return 'model: Field required';
  if (typeof body.model !== 'string') return 'model: Input should be a valid string';
  if (body.max_tokens === undefined) return 'max_tokens: Field required';
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) return 'max_tokens: Input should be a valid integer';
  if (body.max_tokens < 1) return 'max_tokens: Input should be greater than or equal to 1';
  const thinkingProblem = checkThinkingBudget(body.thinking, body.max_tokens);
  if (thinkingProblem !== null) return thinkingProblem;
  if (body.messages === undefined) return 'messages: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Input should be a valid list';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) {
    return 'system: Input should be a valid string or a valid list';
  }
  const toolsDeclared = Array.isArray(body.tools) && body.tools.length > 0;
  const messages: readonly unknown[] = body.messages;
  let usesToolBlocks = false;

  for (const [index, message] of messages.entries()) {
    const where = `messages.${index}`;
    if (!isRecord(message)) return `${where}: Input should be a valid dictionary`;
    if (message.role === 'system') {
      return 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.';
    }
    if (message.role !== 'user' && message.role !== 'assistant') return `${where}.role: Input should be 'user' or 'assistant'`;
    if (index === 0 && message.role !== 'user') return 'messages: first message must use the "user" role';
    const previous = index > 0 ? messages[index - 1] : undefined;
    if (isRecord(previous) && previous.role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`;
    }
    const isFinalAssistant = message.role === 'assistant' && index === messages.length - 1;
    const contentProblem = checkContent(message.role, message.content, where, isFinalAssistant);
    if (contentProblem !== null) return contentProblem;
    if (Array.isArray(message.content) && message.content.some((block) => isRecord(block) && (block.type === 'tool_use' || block.type === 'tool_result'))) {
      usesToolBlocks = true;
    }
  }
  const last = messages.at(-1);
  if (isRecord(last) && last.role === 'assistant') return PREFILL_REFUSED_MESSAGE;
  const breakpoints = countCacheBreakpoints(body);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  const lifetimeProblem = checkCacheLifetimeOrder(body);
  if (lifetimeProblem !== null) return lifetimeProblem;
  if (usesToolBlocks && !toolsDeclared) return TOOLS_REQUIRED_MESSAGE;
  return checkToolPairing(messages) ?? checkThinking(messages, body);
}

/** A thinking budget is at least 1,024 tokens and below max_tokens. */
function checkThinkingBudget(thinking: unknown, maxTokens: number): string | null {
  if (!isRecord(thinking) || thinking.type !== 'enabled') return null;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget)) return 'thinking.enabled.budget_tokens: Field required';
  if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  return budget >= maxTokens ? '`max_tokens` must be greater than `thinking.budget_tokens`.' : null;
}

/** Breakpoints count wherever they sit: system blocks, tool definitions and message content blocks. */
function countCacheBreakpoints(body: Record<string, unknown>): number {
  const marked = (items: unknown): number => (Array.isArray(items) ? items.filter((item) => isRecord(item) && item.cache_control !== undefined && item.cache_control !== null).length : 0);
  const messages: readonly unknown[] = Array.isArray(body.messages) ? body.messages : [];
  return marked(body.system) + marked(body.tools) + messages.reduce<number>((sum, message) => sum + (isRecord(message) ? marked(message.content) : 0), 0);
}

/** Every block that may carry a breakpoint, by its path, in the order Anthropic reads them: tools, system, messages. */
function breakpointSlots(body: Record<string, unknown>): Array<{ readonly path: string; readonly block: unknown }> {
  const listed = (items: unknown, path: string) => (Array.isArray(items) ? items.map((block: unknown, index) => ({ path: `${path}.${index}`, block })) : []);
  const messages: readonly unknown[] = Array.isArray(body.messages) ? body.messages : [];
  return [
    ...listed(body.tools, 'tools'),
    ...listed(body.system, 'system'),
    ...messages.flatMap((message, index) => (isRecord(message) ? listed(message.content, `messages.${index}.content`) : [])),
  ];
}

/** An hour-long entry may not follow a five-minute one (an absent `ttl` is five minutes). */
function checkCacheLifetimeOrder(body: Record<string, unknown>): string | null {
  let shortSeen = false;
  for (const { path, block } of breakpointSlots(body)) {
    if (!isRecord(block) || !isRecord(block.cache_control)) continue;
    const ttl = block.cache_control.ttl ?? '5m';
    if (ttl !== '5m' && ttl !== '1h') return `${path}.cache_control.ttl: Input should be '5m' or '1h'`;
    if (ttl === '1h' && shortSeen) {
      return `${path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`;
    }
    if (ttl === '5m') shortSeen = true;
  }
  return null;
}

function isThinkingType(type: string): boolean {
  return type === 'thinking' || type === 'redacted_thinking';
}

/**
 * With thinking on, the assistant message that made the latest tool calls must open with its thinking; any assistant
 * message holding thinking must open with it; and every thinking block must carry the signature the same model gave it
 * (the fake's own, bound to model and text).
 */
function checkThinking(messages: readonly unknown[], body: Record<string, unknown>): string | null {
  const finalAssistantIndex = messages.findLastIndex((message) => isRecord(message) && message.role === 'assistant');
  const finalAssistant = messages[finalAssistantIndex];
  if (thinkingEnabled(body) && isRecord(finalAssistant) && blocksOfType(finalAssistant.content, 'tool_use').length > 0) {
    const first: unknown = Array.isArray(finalAssistant.content) ? finalAssistant.content[0] : undefined;
    const firstType = isRecord(first) ? String(first.type) : '';
    if (!isThinkingType(firstType)) {
      return `messages.${finalAssistantIndex}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${firstType}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
    }
  }
  const model = typeof body.model === 'string' ? body.model : '';
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const types = message.content.map((block) => (isRecord(block) ? String(block.type) : ''));
    if (types.some(isThinkingType) && !isThinkingType(types[0]!)) {
      return `messages.${index}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found ${types[0]!}.`;
    }
    for (const [blockIndex, block] of message.content.entries()) {
      if (!isRecord(block) || block.type !== 'thinking') continue;
      if (!isOwnAnthropicSignature(String(block.signature), model, String(block.thinking))) {
        return `messages.${index}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  return null;
}

function checkContent(role: 'user' | 'assistant', content: unknown, where: string, isFinalAssistant: boolean): string | null {
  const emptyContent = `${where}: all messages must have non-empty content except for the optional final assistant message`;
  if (content === undefined) return `${where}.content: Field required`;
  if (typeof content === 'string') return content === '' && !isFinalAssistant ? emptyContent : null;
  if (!Array.isArray(content)) return `${where}.content: Input should be a valid string or a valid list`;
  if (content.length === 0 && !isFinalAssistant) return emptyContent;
  const allowed = role === 'user' ? USER_BLOCK_TYPES : ASSISTANT_BLOCK_TYPES;
  for (const [blockIndex, block] of content.entries()) {
    const blockWhere = `${where}.content.${blockIndex}`;
    if (!isRecord(block)) return `${blockWhere}: Input should be a valid dictionary`;
    if (typeof block.type !== 'string' || !ALL_BLOCK_TYPES.includes(block.type)) {
      return `${blockWhere}: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags: ${ALL_BLOCK_TYPES.map((type) => `'${type}'`).join(', ')}`;
    }
    if (!allowed.includes(block.type)) {
      return `${blockWhere}: \`${block.type}\` blocks can only be in \`${role === 'user' ? 'assistant' : 'user'}\` messages`;
    }
    const problem = checkBlock(block, `${blockWhere}.${block.type}`);
    if (problem !== null) return problem;
  }
  return null;
}

function checkBlock(block: Record<string, unknown>, where: string): string | null {
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') return `${where}.text: Field required`;
      if (block.text === '') return 'messages: text content blocks must be non-empty';
      if (block.text.trim() === '') return 'messages: text content blocks must contain non-whitespace text';
      return null;
    case 'thinking':
      if (typeof block.thinking !== 'string') return `${where}.thinking: Field required`;
      if (typeof block.signature !== 'string') return `${where}.signature: Field required`;
      return null;
    case 'redacted_thinking':
      return typeof block.data === 'string' ? null : `${where}.data: Field required`;
    case 'image':
      return checkImageSource(block.source, `${where}.source`);
    case 'document':
      if (!isRecord(block.source)) return `${where}.source: Field required`;
      if (block.source.type === 'base64' && block.source.media_type !== 'application/pdf') {
        return `${where}.source.base64.media_type: Input should be 'application/pdf'`;
      }
      return null;
    case 'tool_use':
      if (typeof block.id !== 'string') return `${where}.id: Field required`;
      if (!ID_PATTERN.test(block.id)) return `${where}.id: String should match pattern '${ID_PATTERN.source}'`;
      if (typeof block.name !== 'string') return `${where}.name: Field required`;
      if (!TOOL_NAME_PATTERN.test(block.name)) return `${where}.name: String should match pattern '${TOOL_NAME_PATTERN.source}'`;
      if (!isRecord(block.input)) return `${where}.input: Input should be a valid dictionary`;
      return null;
    case 'tool_result':
      if (typeof block.tool_use_id !== 'string') return `${where}.tool_use_id: Field required`;
      if (!ID_PATTERN.test(block.tool_use_id)) return `${where}.tool_use_id: String should match pattern '${ID_PATTERN.source}'`;
      if (block.content !== undefined && typeof block.content !== 'string' && !Array.isArray(block.content)) {
        return `${where}.content: Input should be a valid string or a valid list`;
      }
      return null;
    default:
      return null;
  }
}

/** A base64 image source: one of the four types, and bytes that are an image of the type it names. */
function checkImageSource(source: unknown, where: string): string | null {
  if (!isRecord(source)) return `${where}: Field required`;
  if (source.type !== 'base64') return null;
  if (typeof source.media_type !== 'string' || !IMAGE_MEDIA_TYPES.includes(source.media_type)) {
    return `${where}.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  }
  const decoded = typeof source.data === 'string' ? decodeStrictBase64(source.data) : null;
  const actual = decoded !== null && 'bytes' in decoded ? imageTypeOf(decoded.bytes) : null;
  if (actual === null) return `${where}.base64.data: Image does not match the provided media type ${source.media_type}`;
  if (actual !== source.media_type) {
    return `${where}.base64: The image was specified using the ${source.media_type} media type, but the image appears to be a ${actual} image`;
  }
  return null;
}

/** Every `tool_use` needs its `tool_result` in the very next message, and every `tool_result` its `tool_use` just before. */
function checkToolPairing(messages: readonly unknown[]): string | null {
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    if (message.role === 'assistant') {
      const callIds = blocksOfType(message.content, 'tool_use').map((block) => String(block.id));
      const next = messages[index + 1];
      if (callIds.length === 0 || next === undefined) continue;
      const answered = new Set(isRecord(next) ? blocksOfType(next.content, 'tool_result').map((block) => String(block.tool_use_id)) : []);
      const unanswered = callIds.filter((id) => !answered.has(id));
      if (unanswered.length > 0) {
        return `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    } else {
      const previous = index > 0 ? messages[index - 1] : undefined;
      const callIds = new Set(isRecord(previous) ? blocksOfType(previous.content, 'tool_use').map((block) => String(block.id)) : []);
      const content: readonly unknown[] = Array.isArray(message.content) ? message.content : [];
      for (const [blockIndex, block] of content.entries()) {
        if (isRecord(block) && block.type === 'tool_result' && !callIds.has(String(block.tool_use_id))) {
          return `messages.${index}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    }
  }
  return null;
}

function blocksOfType(content: unknown, type: string): Record<string, unknown>[] {
  return Array.isArray(content) ? content.filter((block): block is Record<string, unknown> => isRecord(block) && block.type === type) : [];
}
