/**
 * Request rules of the Gemini API, with Gemini's own 400 texts, for what a replay can get wrong: roles, function call
 * and response pairing, and Gemini 3's thought signatures.
 */
import { isAcceptedGeminiSignature } from './derived-tokens';
import { isRecord, listField } from './fake-wire';
import { decodeStrictBase64 } from './inline-media';

/** Gemini answers some malformed histories (a response to a call the previous turn did not make) with its bare 400. */
export const GEMINI_BARE_INVALID_ARGUMENT = 'Request contains an invalid argument.';

/** Gemini refuses a thinkingConfig that sets both a level and a budget. */
export const GEMINI_LEVEL_AND_BUDGET = 'You can only set only one of thinking budget and thinking level.';
/** Models before Gemini 3 take a thinkingBudget only. */
export const GEMINI_LEVEL_UNSUPPORTED = 'Thinking level is not supported for this model.';

export function checkGeminiRequest(body: Record<string, unknown>, model: string): string | null {
  const thinkingProblem = checkThinkingConfig(body, model);
  if (thinkingProblem !== null) return thinkingProblem;
  if (!Array.isArray(body.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  const contents: readonly unknown[] = body.contents;
  for (const [index, content] of contents.entries()) {
    if (!isRecord(content)) return `Invalid value at 'contents[${index}]'`;
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') return 'Please use a valid role: user, model.';
    if (!Array.isArray(content.parts) || content.parts.length === 0) return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`;
    const problem = checkInlineData(content, index) ?? checkResponsesFollowCalls(content, contents[index - 1]) ?? checkCallsAnswered(content, contents[index + 1]);
    if (problem !== null) return problem;
  }
  return checkSignaturesAccepted(contents) ?? (model.startsWith('gemini-3') ? checkThoughtSignatures(contents) : null);
}

/** Inline bytes are bare base64 (TYPE_BYTES): a data URL or any other text fails to decode. */
function checkInlineData(content: Record<string, unknown>, index: number): string | null {
  for (const [partIndex, part] of listField(content, 'parts').entries()) {
    if (!isRecord(part) || !isRecord(part.inlineData)) continue;
    const data = part.inlineData.data;
    if (typeof data === 'string' && 'bytes' in decodeStrictBase64(data)) continue;
    const field = `contents[${index}].parts[${partIndex}].inline_data.data`;
    return `Invalid value at '${field}' (TYPE_BYTES), Base64 decoding failed for ${JSON.stringify(String(data))}`;
  }
  return null;
}

function checkThinkingConfig(body: Record<string, unknown>, model: string): string | null {
  const config = isRecord(body.generationConfig) && isRecord(body.generationConfig.thinkingConfig) ? body.generationConfig.thinkingConfig : null;
  if (config === null || config.thinkingLevel === undefined) return null;
  if (config.thinkingBudget !== undefined) return GEMINI_LEVEL_AND_BUDGET;
  return model.startsWith('gemini-3') ? null : GEMINI_LEVEL_UNSUPPORTED;
}

/** Each functionResponse answers a functionCall of the same name in the model turn right before it. */
function checkResponsesFollowCalls(content: Record<string, unknown>, previous: unknown): string | null {
  const responseNames = partsWith(content.parts, 'functionResponse').map((part) => nameOf(part.functionResponse));
  if (responseNames.length === 0) return null;
  const callNames = isRecord(previous) && previous.role === 'model' ? partsWith(previous.parts, 'functionCall').map((part) => nameOf(part.functionCall)) : [];
  if (callNames.length === 0) return 'Please ensure that function response turn comes immediately after a function call turn.';
  return responseNames.every((name) => callNames.includes(name)) ? null : GEMINI_BARE_INVALID_ARGUMENT;
}

function checkCallsAnswered(content: Record<string, unknown>, next: unknown): string | null {
  const calls = partsWith(content.parts, 'functionCall').length;
  if (calls === 0 || next === undefined) return null;
  const responses = isRecord(next) ? partsWith(next.parts, 'functionResponse').length : 0;
  if (responses === 0) return 'Please ensure that function response turn comes immediately after a function call turn.';
  if (responses !== calls) return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
  return null;
}

/** A signature Gemini did not issue (nor its documented dummy) is refused wherever it appears. */
function checkSignaturesAccepted(contents: readonly unknown[]): string | null {
  for (const content of contents) {
    if (!isRecord(content)) continue;
    for (const part of listField(content, 'parts')) {
      if (isRecord(part) && typeof part.thoughtSignature === 'string' && !isAcceptedGeminiSignature(part.thoughtSignature)) return 'Corrupted thought signature.';
    }
  }
  return null;
}

/** Gemini 3 validates the current turn only: each model step's first functionCall part must carry a thoughtSignature. */
function checkThoughtSignatures(contents: readonly unknown[]): string | null {
  const turnStart = contents.findLastIndex((content) => isRecord(content) && content.role !== 'model' && userText(content.parts) !== '');
  for (const [index, content] of contents.entries()) {
    if (index <= turnStart || !isRecord(content) || content.role !== 'model') continue;
    const firstCall = partsWith(content.parts, 'functionCall')[0];
    if (firstCall === undefined || typeof firstCall.thoughtSignature === 'string') continue;
    return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${nameOf(firstCall.functionCall)}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
  }
  return null;
}

function partsWith(parts: unknown, key: 'functionCall' | 'functionResponse'): Record<string, unknown>[] {
  return Array.isArray(parts) ? parts.filter((part): part is Record<string, unknown> => isRecord(part) && isRecord(part[key])) : [];
}

function nameOf(call: unknown): string {
  return isRecord(call) ? String(call.name) : '';
}

/** The words of a content's text parts, thoughts left out. */
export function userText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((part): part is { text: string } => isRecord(part) && typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text)
    .join('');
}
