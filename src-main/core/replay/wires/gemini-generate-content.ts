/**
 * Neutral replay → Gemini generateContent request (gemini): the body as sent; the model and the streaming switch
 * go in the URL the adapter builds (see `GeminiGenerateContentBody`).
 * https://ai.google.dev/api/generate-content
 */
import { declaredName } from '../call-shaping';
import { inWrittenShape, type ReplayCall, type ReplayRequest, type ReplayTurn, type ReplayWarning, type TurnPlacement, type WireRequest } from '../types';
import type {
  GeminiContent,
  GeminiFunctionCallPart,
  GeminiFunctionResponsePart,
  GeminiGenerateContentBody,
  GeminiPart,
  GeminiTextPart,
} from './gemini-generate-content-types';
import {
  assistantParts,
  attachmentParts,
  opaqueBlocks,
  planAttachments,
  reasoningFields,
  renderTurns,
  replayableReasoning,
  toolAnswer,
  type AttachmentPart,
} from './shared';

/** An attachment as Gemini takes it: an `inlineData` part with base64 bytes, or a text part. */
function attachmentPart(part: AttachmentPart): GeminiPart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return { inlineData: { mimeType: part.mediaType, data: part.data } };
    case 'pdf':
      return { inlineData: { mimeType: 'application/pdf', data: part.data } };
    default: {
      const unknownPart: never = part;
      throw new Error(`Unknown attachment part ${String(unknownPart)}`);
    }
  }
}

/** Gemini's documented stand-in for calls it did not sign itself (another brain's, or older than signatures). */
export const DUMMY_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

function signatureOf(opaque: unknown): string | null {
  const signature = (opaque as { thoughtSignature?: unknown } | null | undefined)?.thoughtSignature;
  return typeof signature === 'string' && signature.length > 0 ? signature : null;
}

/** Gemini's own signatures go back exactly as received, and only to the model that made them. */
function isOwn(turn: ReplayTurn, request: ReplayRequest): boolean {
  return turn.brain === request.brain && turn.model === request.model;
}

function functionCallParts(turn: ReplayTurn, calls: readonly ReplayCall[], request: ReplayRequest): GeminiFunctionCallPart[] {
  const own = isOwn(turn, request);
  return calls.map((call, index) => {
    const part: GeminiFunctionCallPart = { functionCall: { name: declaredName(call, request.tools), args: call.input } };
    const signature = own ? signatureOf(call.opaque) : null;
    // Gemini 3 rejects a model turn whose first functionCall part has no thought_signature.
    if (signature !== null) part.thoughtSignature = signature;
    else if (index === 0) part.thoughtSignature = DUMMY_THOUGHT_SIGNATURE;
    return part;
  });
}

function functionResponsePart(call: ReplayCall, request: ReplayRequest): GeminiFunctionResponsePart {
  const { text, images } = toolAnswer(call, request);
  return {
    functionResponse: {
      name: declaredName(call, request.tools),
      response: call.isError ? { error: text } : { output: text },
      // Gemini 3 reads media returned by a function from `functionResponse.parts`, not from sibling parts.
      ...(images.length > 0 ? { parts: images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } })) } : {}),
    },
  };
}

function textPart(turn: ReplayTurn, request: ReplayRequest): GeminiTextPart {
  const signature = opaqueBlocks(replayableReasoning('gemini-generate-content', turn, request)).map(signatureOf).find((value) => value !== null) ?? null;
  return signature === null ? { text: turn.text } : { text: turn.text, thoughtSignature: signature };
}

function modelContents(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): GeminiContent[] {
  const asWritten = inWrittenShape(placement);
  const { native, recordLine } = assistantParts(turn, placement, request, warnings);
  const contents: GeminiContent[] = [];
  if (native.length > 0) {
    const leading = asWritten && turn.text.length > 0 ? [{ text: turn.text }] : [];
    contents.push({ role: 'model', parts: [...leading, ...functionCallParts(turn, native, request)] });
    contents.push({ role: 'user', parts: native.map((call) => functionResponsePart(call, request)) });
  }
  const words: GeminiContent[] = turn.text.length > 0 && !(asWritten && native.length > 0) ? [{ role: 'model', parts: [textPart(turn, request)] }] : [];
  const records: GeminiContent[] = recordLine === null ? [] : [{ role: 'user', parts: [{ text: recordLine }] }];
  // A live round's words come before the record of its calls: a request may not end on the model's words.
  contents.push(...(asWritten ? [...words, ...records] : [...records, ...words]));
  return contents;
}

export function convertToGeminiContents(request: ReplayRequest): WireRequest<GeminiGenerateContentBody> {
  const warnings: ReplayWarning[] = [];
  const contents: GeminiContent[] = [];
  const plan = planAttachments(request, 'gemini-generate-content');
  const rendered = renderTurns<GeminiContent>(request.turns, {
    userText: (text) => ({ role: 'user', parts: [{ text }] }),
    // Gemini refuses an empty text part, so a message of files alone sends none.
    userWithAttachments: (turn) => ({
      role: 'user',
      parts: [...attachmentParts(turn, plan, request, warnings).map(attachmentPart), ...(turn.text.length > 0 ? [{ text: turn.text }] : [])],
    }),
    assistant: (turn, placement) => modelContents(turn, placement, request, warnings),
  }, request.live);
  for (const content of rendered) {
    const previous = contents.at(-1);
    // Gemini roles are only user and model, alternating: adjacent same-role parts merge.
    if (previous && previous.role === content.role) previous.parts.push(...content.parts);
    else contents.push(content);
  }
  const body: GeminiGenerateContentBody = {
    systemInstruction: { parts: [{ text: request.system }] },
    contents,
    ...(request.tools.length > 0
      ? {
          tools: [
            {
              functionDeclarations: request.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                parametersJsonSchema: tool.inputSchema,
              })),
            },
          ],
        }
      : {}),
    generationConfig: {
      maxOutputTokens: request.maxOutputTokens,
      // Gemini 3 takes thinkingLevel, older models thinkingBudget; a request with both is a 400.
      ...reasoningFields('gemini-generate-content', request),
    },
  };
  return { body, warnings };
}
