/**
 * Request rules of the Responses API, with OpenAI's own statuses and texts, for what a replay can get wrong: stored
 * item ids, reasoning without its encrypted content, outputs without their calls, and `previous_response_id`.
 */
import { isRecord, listField, type ServerMemory } from './fake-wire';
import { OPENAI_IMAGE_URL_EXPECTED, openAiImageUrlProblem } from './inline-media';

const MAX_CALL_ID_LENGTH = 64;

export interface ResponsesViolation {
  readonly status: number;
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
}

function violation(status: number, message: string, param: string | null = null, code: string | null = null): ResponsesViolation {
  return { status, message, param, code };
}

/** What OpenAI answers for an item id it does not keep. */
function itemNotFound(id: string, store: boolean): ResponsesViolation {
  const notKept = store ? '' : ' Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.';
  return violation(404, `Item with id '${id}' not found.${notKept}`, 'input', null);
}

export function checkResponsesRequest(body: Record<string, unknown>, memory: ServerMemory): ResponsesViolation | null {
  if (typeof body.model !== 'string' || body.model === '') return violation(400, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  // Replays carry their own history; a stored response id would point at nothing the fake (or a store:false call) kept.
  if (typeof body.previous_response_id === 'string') {
    return violation(400, `Previous response with id '${body.previous_response_id}' not found.`, 'previous_response_id', 'previous_response_not_found');
  }
  const store = body.store !== false;
  const callIds = new Set<string>();
  const answered = new Set<string>();
  for (const [index, item] of listField(body, 'input').entries()) {
    if (!isRecord(item)) continue;
    const problem = checkItem(item, index, store, memory, callIds);
    if (problem !== null) return problem;
    if (item.type === 'function_call') callIds.add(String(item.call_id));
    if (item.type === 'function_call_output') answered.add(String(item.call_id));
  }
  const unanswered = [...callIds].find((callId) => !answered.has(callId));
  if (unanswered !== undefined) return violation(400, `No tool output found for function call ${unanswered}.`, 'input');
  return null;
}

function checkItem(item: Record<string, unknown>, index: number, store: boolean, memory: ServerMemory, callIds: ReadonlySet<string>): ResponsesViolation | null {
  const id = typeof item.id === 'string' ? item.id : null;
  switch (item.type) {
    case 'function_call': {
      const callId = String(item.call_id);
      if (callId.length > MAX_CALL_ID_LENGTH) {
        return violation(
          400,
          `Invalid 'input[${index}].call_id': string too long. Expected a string with maximum length ${MAX_CALL_ID_LENGTH}, but got a string with length ${callId.length} instead.`,
          `input[${index}].call_id`,
          'string_above_max_length',
        );
      }
      if (id === null) return null;
      if (!id.startsWith('fc')) return violation(400, `Invalid 'input[${index}].id': '${id}'. Expected an ID that begins with 'fc'.`, `input[${index}].id`, 'invalid_value');
      // With `store` off the item travels whole; with it on, OpenAI looks the id up among what it kept.
      return store && !memory.storedItemIds.has(id) ? itemNotFound(id, store) : null;
    }
    case 'reasoning': {
      if (id === null) return null;
      if (!id.startsWith('rs')) return violation(400, `Invalid 'input[${index}].id': '${id}'. Expected an ID that begins with 'rs'.`, `input[${index}].id`, 'invalid_value');
      // Without `store`, only the encrypted content can bring the reasoning back; OpenAI then looks for the id and fails.
      if (!store) return typeof item.encrypted_content === 'string' && item.encrypted_content !== '' ? null : itemNotFound(id, store);
      return memory.storedItemIds.has(id) ? null : itemNotFound(id, store);
    }
    case 'item_reference':
      return id !== null && (!store || !memory.storedItemIds.has(id)) ? itemNotFound(id, store) : null;
    case 'function_call_output': {
      const callId = String(item.call_id);
      return callIds.has(callId) ? null : violation(400, `No tool call found for function call output with call_id ${callId}.`, 'input');
    }
    case undefined:
    case 'message':
      return checkMessageContent(item, index);
    default:
      return null;
  }
}

/** An inline image is a base64 data URL of an image (OpenAI decodes it before the model sees it). */
function checkMessageContent(item: Record<string, unknown>, index: number): ResponsesViolation | null {
  for (const [partIndex, part] of listField(item, 'content').entries()) {
    if (!isRecord(part) || part.type !== 'input_image' || typeof part.file_id === 'string') continue;
    const problem = openAiImageUrlProblem(part.image_url);
    if (problem !== null) {
      const param = `input[${index}].content[${partIndex}].image_url`;
      return violation(400, `Invalid '${param}'. ${OPENAI_IMAGE_URL_EXPECTED} ${problem}`, param, 'invalid_value');
    }
  }
  return null;
}
