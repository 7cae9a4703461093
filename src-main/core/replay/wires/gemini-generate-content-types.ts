/**
 * The request the Gemini converter builds, from @google/genai's own types narrowed to the fields a replay writes
 * (the SDK marks every field optional; here the ones the API needs are required), so a misspelt field fails to
 * compile. https://ai.google.dev/api/generate-content
 */
import type { Blob, FunctionCall, FunctionDeclaration, FunctionResponse, FunctionResponseBlob, GenerationConfig, Part } from '@google/genai';
import type { GeminiReasoningFields } from '../../../../src-shared/reasoning';

type Signed = Pick<Part, 'thoughtSignature'>;

export type GeminiTextPart = Signed & { text: string };
export type GeminiFunctionCallPart = Signed & { functionCall: Required<Pick<FunctionCall, 'name' | 'args'>> };
/** Media a function response carries beside its JSON (Gemini 3's multimodal function responses). */
export type GeminiFunctionResponseMedia = { inlineData: Required<Pick<FunctionResponseBlob, 'mimeType' | 'data'>> };
export type GeminiFunctionResponsePart = {
  functionResponse: Required<Pick<FunctionResponse, 'name'>> & {
    response: { output: string } | { error: string };
    parts?: GeminiFunctionResponseMedia[];
  };
};
/** An attached image or PDF: its bytes in base64, with their media type. */
export type GeminiInlineDataPart = { inlineData: Required<Pick<Blob, 'mimeType' | 'data'>> };
export type GeminiPart = GeminiTextPart | GeminiFunctionCallPart | GeminiFunctionResponsePart | GeminiInlineDataPart;

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export type GeminiFunctionDeclaration = Required<Pick<FunctionDeclaration, 'name' | 'description'>> & { parametersJsonSchema: Record<string, unknown> };

/**
 * The body of `POST models/MODEL:streamGenerateContent`, exactly as sent: Gemini takes the model and the streaming
 * switch in the URL and rejects them in the body ("Unknown name \"model\""), so the adapter reads the model from
 * the call (`ProviderCall.model`).
 */
export interface GeminiGenerateContentBody {
  readonly systemInstruction: { parts: GeminiTextPart[] };
  readonly contents: GeminiContent[];
  readonly tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  /** `thinkingLevel` as Google's REST reference spells it (`"low"`); the SDK's enum spells it upper-case. */
  readonly generationConfig: Required<Pick<GenerationConfig, 'maxOutputTokens'>> & Partial<GeminiReasoningFields>;
}

