/**
 * Request rules of Ollama's `/api/chat`: the Go server's decoding errors for wrongly typed fields, and the pairing of
 * `tool` messages with the calls before them.
 */
import { isRecord, listField } from './fake-wire';
import { decodeStrictBase64 } from './inline-media';

const ROLES = ['system', 'user', 'assistant', 'tool'];

/**
 * Which of the fake's models think: all but the Llama family, like the models Ollama serves (llama3.x has no thinking
 * capability in `/api/show`).
 */
export function fakeOllamaModelThinks(model: string): boolean {
  return !model.startsWith('llama');
}

export function checkOllamaRequest(body: Record<string, unknown>): string | null {
  if (typeof body.model !== 'string' || body.model === '') return 'model is required';
  // Ollama's chat handler refuses a truthy think to a model without the thinking capability; false passes anywhere.
  const truthyThink = body.think === true || (typeof body.think === 'string' && body.think !== '');
  if (truthyThink && !fakeOllamaModelThinks(body.model)) return `${JSON.stringify(body.model)} does not support thinking`;
  // Go decodes options.num_ctx into an int: a string or a fraction fails to unmarshal.
  if (isRecord(body.options) && body.options.num_ctx !== undefined && !Number.isSafeInteger(body.options.num_ctx)) {
    return 'json: cannot unmarshal into Go struct field Options.options.num_ctx of type int';
  }
  const calledNames = new Set<string>();
  for (const [index, message] of listField(body, 'messages').entries()) {
    if (!isRecord(message)) return 'json: cannot unmarshal into Go struct field ChatRequest.messages of type api.Message';
    if (typeof message.role !== 'string' || !ROLES.includes(message.role)) return `invalid role: ${String(message.role)}`;
    // Images are bare base64, decoded by Go's encoding/base64: a data URL fails at its ':' ("input byte 4").
    for (const image of listField(message, 'images')) {
      const decoded = typeof image === 'string' ? decodeStrictBase64(image) : { badIndex: 0 };
      if ('badIndex' in decoded) return `illegal base64 data at input byte ${decoded.badIndex}`;
    }
    for (const call of listField(message, 'tool_calls')) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      // Ollama takes arguments as an object, unlike OpenAI's JSON string.
      if (typeof call.function.arguments === 'string') {
        return 'json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments';
      }
      if (typeof call.function.name === 'string') calledNames.add(call.function.name);
    }
    if (message.role !== 'tool') continue;
    // The model reads a tool message's content as the answer; without it there is nothing to read.
    if (typeof message.content !== 'string') return `messages[${index}]: a tool message needs its content`;
    // Ollama pairs answers with calls by name: a name no earlier call used answers nothing.
    if (typeof message.tool_name === 'string' && !calledNames.has(message.tool_name)) {
      return `messages[${index}]: tool_name "${message.tool_name}" does not match any earlier tool call`;
    }
  }
  return null;
}
