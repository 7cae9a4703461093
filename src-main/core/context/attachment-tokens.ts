/**
 * What an attached file costs in a request, per brain, by each provider's published rule. A model that cannot take
 * the kind gets its one-line stand-in, which costs that line. A stored row's estimate is summed by the window guard in
 * SQL for every target alike, so it holds the ceiling (`attachmentTokenCeiling`): the most any brain charges for the
 * file, so a request never exceeds the window of whichever brain answers.
 */
import { attachmentStandIn, modelInputs, modelTakesAttachment, textAttachmentBlock, type AttachmentKind } from '../../../src-shared/attachments';
import { BRAIN_IDS, BRAINS, type BrainId } from '../../../src-shared/brains';
import { estimateTokens } from './token-estimate';

/** What the estimate needs to know about a file: no bytes. */
export interface AttachmentCost {
  readonly name: string;
  readonly kind: AttachmentKind;
  readonly mediaType: string;
  readonly size: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly pages: number | null;
}

/** An image whose size is unknown: about a 1,000 × 1,000 photograph on the dearest rule. */
const UNKNOWN_IMAGE_TOKENS = 1_600;

/** A PDF whose page tree sits in compressed streams: about 50 kB a page, the size of a page of text with a figure. */
const BYTES_PER_UNCOUNTED_PAGE = 50_000;

function pdfPages(attachment: AttachmentCost): number {
  return attachment.pages ?? Math.max(1, Math.ceil(attachment.size / BYTES_PER_UNCOUNTED_PAGE));
}

/** The pixels after a resize that keeps the aspect ratio and fits `maxLong` on the long side. */
function fitLongSide(width: number, height: number, maxLong: number): { width: number; height: number } {
  const scale = Math.min(1, maxLong / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/**
 * Anthropic: about width × height / 750 tokens, after images with a long side over 1,568 pixels are scaled down to it
 * (so at most about 1,600 tokens).
 */
function anthropicImageTokens(width: number, height: number): number {
  const fitted = fitLongSide(width, height, 1_568);
  return Math.min(1_600, Math.ceil((fitted.width * fitted.height) / 750));
}

/**
 * OpenAI (GPT-5, `detail: "auto"` read as high): scaled to fit 2048 × 2048, then the short side to 768; 85 tokens plus
 * 170 per 512-pixel tile.
 */
function openAiImageTokens(width: number, height: number): number {
  const fitted = fitLongSide(width, height, 2_048);
  const shortScale = Math.min(1, 768 / Math.min(fitted.width, fitted.height));
  const tilesWide = Math.ceil((fitted.width * shortScale) / 512);
  const tilesHigh = Math.ceil((fitted.height * shortScale) / 512);
  return 85 + 170 * tilesWide * tilesHigh;
}

/** xAI: 256 tokens per 448 × 448 tile, at most 6 tiles plus one overview tile. */
function xaiImageTokens(width: number, height: number): number {
  const tiles = Math.min(6, Math.ceil(width / 448) * Math.ceil(height / 448));
  return 256 * (tiles + 1);
}

/** Gemini 3: a fixed 1,120 tokens an image at its default (high) media resolution; a PDF page 560 (medium). */
const GEMINI_IMAGE_TOKENS = 1_120;
const GEMINI_PDF_PAGE_TOKENS = 560;

const KIMI_IMAGE_TOKENS = 1_024;

/** Anthropic and OpenAI read a PDF page as its text (about 1,500 to 3,000 tokens) and an image of the page. */
const PDF_PAGE_TOKENS = 3_000;

/** What the brain's model is charged for an image it takes. */
function imageTokens(brain: BrainId, width: number | null, height: number | null): number {
  if (width === null || height === null) return UNKNOWN_IMAGE_TOKENS;
  switch (BRAINS[brain].wire) {
    case 'anthropic-messages':
      return anthropicImageTokens(width, height);
    case 'openai-responses':
      return brain === 'grok' ? xaiImageTokens(width, height) : openAiImageTokens(width, height);
    case 'gemini-generate-content':
      return GEMINI_IMAGE_TOKENS;
    // Moonshot: "Each image is billed at a flat rate of 1,024 tokens, regardless of dimensions or resolution".
    case 'chat-completions':
      return KIMI_IMAGE_TOKENS;
    // Ollama's vision models publish no one rule; Anthropic's, the dearest by pixels, stands in for it.
    case 'ollama-chat':
      return anthropicImageTokens(width, height);
    default: {
      const unknownWire: never = BRAINS[brain].wire;
      throw new Error(`Unknown wire ${String(unknownWire)}`);
    }
  }
}

function pdfTokens(brain: BrainId, attachment: AttachmentCost): number {
  const perPage = BRAINS[brain].wire === 'gemini-generate-content' ? GEMINI_PDF_PAGE_TOKENS : PDF_PAGE_TOKENS;
  return pdfPages(attachment) * perPage;
}

/** What one attached file costs in a request to `model` on `brain`: itself where the model takes it, else its stand-in. */
export function attachmentTokens(brain: BrainId, model: string, attachment: AttachmentCost): number {
  switch (attachment.kind) {
    case 'text':
      // The block's label lines around the text; the text is about one token per four bytes (UTF-8 prose and code).
      return estimateTokens(textAttachmentBlock(attachment.name, '')) + Math.ceil(attachment.size / 4);
    case 'image':
    case 'pdf': {
      if (!modelTakesAttachment(modelInputs(brain, model), attachment)) return estimateTokens(attachmentStandIn(attachment));
      return attachment.kind === 'image' ? imageTokens(brain, attachment.width, attachment.height) : pdfTokens(brain, attachment);
    }
    default: {
      const unknownKind: never = attachment.kind;
      throw new Error(`Unknown attachment kind ${String(unknownKind)}`);
    }
  }
}

/** The most any brain's default model is charged for the file: what a stored row counts for it (see the head). */
export function attachmentTokenCeiling(attachment: AttachmentCost): number {
  return Math.max(
    ...BRAIN_IDS.map((brain) => {
      // A brain's model that cannot take the kind would count only the stand-in; the ceiling assumes one that can.
      const costs = [attachmentTokens(brain, BRAINS[brain].defaultModel, attachment)];
      if (attachment.kind === 'image') costs.push(imageTokens(brain, attachment.width, attachment.height));
      if (attachment.kind === 'pdf') costs.push(pdfTokens(brain, attachment));
      return Math.max(...costs);
    }),
  );
}
