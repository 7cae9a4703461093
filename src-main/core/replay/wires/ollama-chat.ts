/**
 * Neutral replay → Ollama /api/chat request body (ollama). Tool-call arguments are objects on this wire.
 * https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */
import { declaredName } from '../call-shaping';
import { inWrittenShape, type ReplayRequest, type ReplayTurn, type ReplayWarning, type TurnPlacement, type WireRequest } from '../types';
import type { OllamaChatBody, OllamaMessage } from './ollama-chat-types';
import {
  answerText,
  assistantParts,
  attachmentParts,
  functionToolDeclarations,
  planAttachments,
  reasoningFields,
  renderTurns,
  replayableReasoning,
} from './shared';

/**
 * A user message with attachments as Ollama takes it: images in the message's `images` (bare base64), text files and
 * stand-ins as text ahead of the user's words. Ollama reads no PDFs, so the table never sends it one.
 */
function userWithAttachments(turn: ReplayTurn, plan: ReturnType<typeof planAttachments>, request: ReplayRequest, warnings: ReplayWarning[]): OllamaMessage {
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of attachmentParts(turn, plan, request, warnings)) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'image':
        images.push(part.data);
        break;
      case 'pdf':
        throw new Error(`Ollama takes no PDFs, yet ${part.name} was planned to go as itself.`);
      default: {
        const unknownPart: never = part;
        throw new Error(`Unknown attachment part ${String(unknownPart)}`);
      }
    }
  }
  const content = [...texts, ...(turn.text.length > 0 ? [turn.text] : [])].join('\n\n');
  return images.length > 0 ? { role: 'user', content, images } : { role: 'user', content };
}

/** Ollama's own thinking goes back with its calls; no other brain's. */
function ownThinking(turn: ReplayTurn, request: ReplayRequest): string | null {
  return replayableReasoning('ollama-chat', turn, request)?.text ?? null;
}

function assistantMessages(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): OllamaMessage[] {
  const asWritten = inWrittenShape(placement);
  const { native, recordLine } = assistantParts(turn, placement, request, warnings);
  const thinking = ownThinking(turn, request);
  const messages: OllamaMessage[] = [];
  if (native.length > 0) {
    messages.push({
      role: 'assistant',
      content: asWritten ? turn.text : '',
      ...(thinking === null ? {} : { thinking }),
      tool_calls: native.map((call) => ({ function: { name: declaredName(call, request.tools), arguments: call.input } })),
    });
    for (const call of native) messages.push({ role: 'tool', content: answerText(call), tool_name: declaredName(call, request.tools) });
  }
  const words: OllamaMessage[] = turn.text.length > 0 && !(asWritten && native.length > 0)
    ? [{ role: 'assistant', content: turn.text, ...(native.length === 0 && thinking !== null ? { thinking } : {}) }]
    : [];
  const records: OllamaMessage[] = recordLine === null ? [] : [{ role: 'user', content: recordLine }];
  // A live round's words come before the record of its calls: a request may not end on the assistant's words.
  messages.push(...(asWritten ? [...words, ...records] : [...records, ...words]));
  return messages;
}

export function convertToOllamaMessages(request: ReplayRequest): WireRequest<OllamaChatBody> {
  const warnings: ReplayWarning[] = [];
  const plan = planAttachments(request, 'ollama-chat');
  // An array literal, not push(...): spreading 100,000 messages as call arguments exceeds V8's argument limit.
  const messages: OllamaMessage[] = [
    { role: 'system', content: request.system },
    ...renderTurns<OllamaMessage>(request.turns, {
      userText: (text) => ({ role: 'user', content: text }),
      userWithAttachments: (turn) => userWithAttachments(turn, plan, request, warnings),
      assistant: (turn, placement) => assistantMessages(turn, placement, request, warnings),
    }, request.live),
  ];
  const body: OllamaChatBody = {
    model: request.model,
    messages,
    ...(request.tools.length > 0 ? { tools: functionToolDeclarations(request.tools) } : {}),
    // Thinking models think unless sent think: false; a truthy think to a model without thinking is a 400.
    ...reasoningFields('ollama-chat', request),
    // Without num_ctx Ollama runs the model at its server's default window (4k, 32k or 256k by the machine) and, when
    // the prompt is longer, drops its start without a word.
    options: { num_ctx: request.contextWindow },
    stream: true,
  };
  return { body, warnings };
}
