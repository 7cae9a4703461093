/**
 * Neutral replay → Gemini generateContent request body (gemini). The model and the streaming switch travel in the
 * URL (`models/MODEL:streamGenerateContent?alt=sse`); the adapter takes them out of this body before sending.
 * https://ai.google.dev/api/generate-content
 */
import { declaredName } from '../call-shaping';
import type { ReplayCall, ReplayRequest, ReplayTurn, ReplayWarning, TurnPlacement, WireRequest } from '../types';
import { assistantParts, opaqueBlocks, ownReasoning, renderTurns } from './shared';

type GeminiPart = Record<string, unknown>;
interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** Gemini's documented stand-in for calls it did not sign itself (another brain's, or older than signatures). */
export const DUMMY_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

const THINKING_BUDGET = { low: 1024, medium: 8192, high: 24576 } as const;

function signatureOf(opaque: unknown): string | null {
  const signature = (opaque as { thoughtSignature?: unknown } | null | undefined)?.thoughtSignature;
  return typeof signature === 'string' && signature.length > 0 ? signature : null;
}

/** Gemini's own signatures go back exactly as received, and only to the model that made them. */
function isOwn(turn: ReplayTurn, request: ReplayRequest): boolean {
  return turn.brain === request.brain && turn.model === request.model;
}

function functionCallParts(turn: ReplayTurn, calls: readonly ReplayCall[], request: ReplayRequest): GeminiPart[] {
  const own = isOwn(turn, request);
  return calls.map((call, index) => {
    const part: GeminiPart = { functionCall: { name: declaredName(call, request.tools), args: call.input } };
    const signature = own ? signatureOf(call.opaque) : null;
    // Gemini 3 rejects a model turn whose first functionCall part has no thought_signature.
    if (signature !== null) part.thoughtSignature = signature;
    else if (index === 0) part.thoughtSignature = DUMMY_THOUGHT_SIGNATURE;
    return part;
  });
}

function functionResponsePart(call: ReplayCall, request: ReplayRequest): GeminiPart {
  return {
    functionResponse: { name: declaredName(call, request.tools), response: call.isError ? { error: call.answer } : { output: call.answer } },
  };
}

function textPart(turn: ReplayTurn, request: ReplayRequest): GeminiPart {
  const signature = opaqueBlocks(ownReasoning(turn, request)).map(signatureOf).find((value) => value !== null) ?? null;
  return signature === null ? { text: turn.text } : { text: turn.text, thoughtSignature: signature };
}

function modelContents(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): GeminiContent[] {
  const live = placement === 'live';
  const { native, recordLine } = assistantParts(turn, request, warnings);
  const contents: GeminiContent[] = [];
  if (native.length > 0) {
    const leading = live && turn.text.length > 0 ? [{ text: turn.text }] : [];
    contents.push({ role: 'model', parts: [...leading, ...functionCallParts(turn, native, request)] });
    contents.push({ role: 'user', parts: native.map((call) => functionResponsePart(call, request)) });
  }
  if (recordLine !== null) contents.push({ role: 'user', parts: [{ text: recordLine }] });
  if (turn.text.length > 0 && !(live && native.length > 0)) contents.push({ role: 'model', parts: [textPart(turn, request)] });
  return contents;
}

export function convertToGeminiContents(request: ReplayRequest): WireRequest {
  const warnings: ReplayWarning[] = [];
  const contents: GeminiContent[] = [];
  const rendered = renderTurns<GeminiContent>(request.turns, {
    userText: (text) => ({ role: 'user', parts: [{ text }] }),
    assistant: (turn, placement) => modelContents(turn, placement, request, warnings),
  }, request.live);
  for (const content of rendered) {
    const previous = contents.at(-1);
    // Gemini roles are only user and model, alternating: adjacent same-role parts merge.
    if (previous && previous.role === content.role) previous.parts.push(...content.parts);
    else contents.push(content);
  }
  const body: Record<string, unknown> = {
    model: request.model,
    systemInstruction: { parts: [{ text: request.system }] },
    contents,
  };
  if (request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.inputSchema,
        })),
      },
    ];
  }
  body.generationConfig = {
    maxOutputTokens: request.maxOutputTokens,
    ...(request.reasoningLevel === 'off'
      ? {}
      : { thinkingConfig: { includeThoughts: true, thinkingBudget: THINKING_BUDGET[request.reasoningLevel] } }),
  };
  body.stream = true;
  return { body, warnings };
}
