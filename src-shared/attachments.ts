/**
 * Attachments: the kinds a message may carry, their limits, and which models take which kind. A model that cannot
 * take a kind is never sent it: the composer refuses it before sending, and a history that holds one replays a
 * labelled text stand-in instead. Text files go to every model as a labelled text block.
 */
import { BRAINS, type BrainId } from './brains';
import { findModel } from './models/catalogue';

export type AttachmentKind = 'image' | 'pdf' | 'text';
export const ATTACHMENT_KINDS: readonly AttachmentKind[] = ['image', 'pdf', 'text'];

/** The images every wire takes inline (Anthropic, OpenAI, Gemini and Ollama all list these four). SVG is none of them. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];
export const PDF_MEDIA_TYPE = 'application/pdf';

const MEBIBYTE = 1024 * 1024;

/**
 * Bytes per file. Images: 10 MiB, xAI's documented maximum per image. PDFs: 20 MiB, Gemini's limit for a request
 * with inline data. Text: 1 MiB, about 250,000 tokens.
 */
export const ATTACHMENT_SIZE_LIMITS: Readonly<Record<AttachmentKind, number>> = {
  image: 10 * MEBIBYTE,
  pdf: 20 * MEBIBYTE,
  text: 1 * MEBIBYTE,
};

export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/**
 * The most pixels an image may declare, in megapixels. Showing an image decodes all of them: a 20,000 × 20,000 PNG of
 * 1.2 MB froze the window for 19 s and took Chromium 4.5 GB, while a 50-megapixel photograph (8,660 × 5,770, more than
 * any phone camera's default) decodes in about 200 MB. Every wire scales images far below this anyway.
 */
export const MAX_IMAGE_MEGAPIXELS = 50;

/** An image the window must not decode: it declares more than `MAX_IMAGE_MEGAPIXELS`. */
export function exceedsImageMegapixels(width: number, height: number): boolean {
  return width * height > MAX_IMAGE_MEGAPIXELS * 1_000_000;
}

/** The longest base64 text `addAttachment` takes: the largest limit, encoded (4 characters per 3 bytes, padded). */
export const MAX_ATTACHMENT_BASE64_LENGTH = Math.ceil(Math.max(...Object.values(ATTACHMENT_SIZE_LIMITS)) / 3) * 4;

/** Text and code files by extension, with the media type each is stored under. */
const TEXT_EXTENSIONS: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonl: 'application/jsonl',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  ini: 'text/plain',
  cfg: 'text/plain',
  conf: 'text/plain',
  env: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  scss: 'text/x-scss',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  jsx: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  mts: 'text/x-typescript',
  cts: 'text/x-typescript',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  kt: 'text/x-kotlin',
  swift: 'text/x-swift',
  c: 'text/x-c',
  h: 'text/x-c',
  cc: 'text/x-c++',
  cpp: 'text/x-c++',
  hpp: 'text/x-c++',
  cs: 'text/x-csharp',
  php: 'text/x-php',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  zsh: 'text/x-shellscript',
  ps1: 'text/plain',
  sql: 'application/sql',
  lua: 'text/x-lua',
  r: 'text/x-r',
  scala: 'text/x-scala',
  dart: 'text/x-dart',
  vue: 'text/plain',
  svelte: 'text/plain',
  diff: 'text/x-diff',
  patch: 'text/x-diff',
};

/** Names without an extension that are text by convention. */
const TEXT_FILE_NAMES = new Set(['makefile', 'dockerfile', 'readme', 'license', 'changelog', 'gemfile', 'procfile']);

const IMAGE_EXTENSIONS: Readonly<Record<string, ImageMediaType>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The file picker's accept list: the four image types, PDF, and the text and code extensions. */
export const ATTACHMENT_ACCEPT: string = [...IMAGE_MEDIA_TYPES, PDF_MEDIA_TYPE, ...Object.keys(TEXT_EXTENSIONS).map((extension) => `.${extension}`)].join(',');

/** The lower-case extension of a file name, without its dot; '' when it has none. */
export function fileExtension(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** What a name claims a file is, before its bytes are read: the kind, or null for a name Anybrain takes no file by. */
export function kindClaimedByName(name: string): AttachmentKind | null {
  const extension = fileExtension(name);
  if (extension in IMAGE_EXTENSIONS) return 'image';
  if (extension === 'pdf') return 'pdf';
  return textMediaTypeFor(name) === null ? null : 'text';
}

/** The media type a text file is stored under, by its name; null when the name is not a text or code file's. */
export function textMediaTypeFor(name: string): string | null {
  const extension = fileExtension(name);
  if (extension === '') {
    const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).toLowerCase();
    return TEXT_FILE_NAMES.has(base) ? 'text/plain' : null;
  }
  return TEXT_EXTENSIONS[extension] ?? null;
}

/** What a model takes as input besides text: part of each catalogue entry (models/catalogue.ts). */
export interface ModelInputs {
  readonly images: boolean;
  readonly pdfs: boolean;
  /** The image types it takes (empty when it takes no images): another type replays as the stand-in. */
  readonly imageTypes: readonly ImageMediaType[];
}

/** What `model` on `brain` takes besides text, as the catalogue holds it; text only for a model it does not know. */
export function modelInputs(brain: BrainId, model: string): ModelInputs {
  return findModel(brain, model).entry.inputs;
}

/** Whether the model takes this kind as itself (text files go to every model as text). */
export function modelTakesKind(inputs: ModelInputs, kind: AttachmentKind): boolean {
  switch (kind) {
    case 'image':
      return inputs.images;
    case 'pdf':
      return inputs.pdfs;
    case 'text':
      return true;
    default: {
      const unknownKind: never = kind;
      throw new Error(`Unknown attachment kind ${String(unknownKind)}`);
    }
  }
}

/** Whether the model takes this file as itself: its kind, and for an image its type. */
export function modelTakesAttachment(inputs: ModelInputs, attachment: { readonly kind: AttachmentKind; readonly mediaType: string }): boolean {
  if (!modelTakesKind(inputs, attachment.kind)) return false;
  return attachment.kind !== 'image' || (inputs.imageTypes as readonly string[]).includes(attachment.mediaType);
}

/** Brains to suggest instead, in order, when their default model takes what the user attached. */
const SUGGESTED_BRAINS: readonly BrainId[] = ['gemini', 'claude', 'codex'];

/** "GIF" for image/gif. */
function imageTypeLabel(mediaType: string): string {
  return mediaType.slice(mediaType.indexOf('/') + 1).toUpperCase();
}

/**
 * Null when the model takes every kind; else the sentence the composer shows, e.g.
 * "Ollama qwen3 cannot see images here; switch to Gemini or remove it." (text files go to every model). With the
 * images' media types, an image type the model does not take is named too ("cannot see GIF images").
 */
export function attachmentRefusal(brain: BrainId, model: string, kinds: readonly AttachmentKind[], imageMediaTypes: readonly string[] = []): string | null {
  const inputs = modelInputs(brain, model);
  const refusedKinds = [...new Set(kinds)].filter((kind) => !modelTakesKind(inputs, kind));
  const refusedTypes = inputs.images ? [...new Set(imageMediaTypes)].filter((type) => !(inputs.imageTypes as readonly string[]).includes(type)) : [];
  if (refusedKinds.length === 0 && refusedTypes.length === 0) return null;
  const cannot = [
    ...refusedKinds.map((kind) => (kind === 'image' ? 'see images' : 'read PDFs')),
    ...(refusedTypes.length > 0 ? [`see ${refusedTypes.map(imageTypeLabel).join(' or ')} images`] : []),
  ].join(' or ');
  const suggestion = SUGGESTED_BRAINS.find((candidate) => {
    if (candidate === brain) return false;
    const candidateInputs = modelInputs(candidate, BRAINS[candidate].defaultModel);
    return refusedKinds.every((kind) => modelTakesKind(candidateInputs, kind)) && refusedTypes.every((type) => (candidateInputs.imageTypes as readonly string[]).includes(type));
  });
  const switchTo = suggestion === undefined ? '' : `switch to ${BRAINS[suggestion].label} or `;
  const refusedCount = kinds.filter((kind) => refusedKinds.includes(kind)).length + imageMediaTypes.filter((type) => refusedTypes.includes(type)).length;
  return `${BRAINS[brain].label} ${model} cannot ${cannot} here; ${switchTo}remove ${refusedCount === 1 ? 'it' : 'them'}.`;
}

/** "1280x720" for an image with known dimensions, else null. */
export function imageDimensions(width: number | null, height: number | null): string | null {
  return width !== null && height !== null ? `${width}x${height}` : null;
}

/** What the stand-in says about an attachment a brain cannot take. */
export interface AttachmentFacts {
  readonly name: string;
  readonly kind: AttachmentKind;
  readonly width: number | null;
  readonly height: number | null;
}

/**
 * The labelled line a brain that cannot take an image or PDF gets in its place:
 * `[image photo.png (1280x720) was shown to an earlier brain; this brain cannot see it]`.
 */
export function attachmentStandIn(attachment: AttachmentFacts): string {
  switch (attachment.kind) {
    case 'image': {
      const dimensions = imageDimensions(attachment.width, attachment.height);
      return `[image ${attachment.name}${dimensions === null ? '' : ` (${dimensions})`} was shown to an earlier brain; this brain cannot see it]`;
    }
    case 'pdf':
      return `[PDF ${attachment.name} was shown to an earlier brain; this brain cannot read it]`;
    case 'text':
      return `[text file ${attachment.name}]`;
    default: {
      const unknownKind: never = attachment.kind;
      throw new Error(`Unknown attachment kind ${String(unknownKind)}`);
    }
  }
}

/** The label a text file's block opens with, in every wire: `[text file notes.md]` then its text. */
export function textAttachmentBlock(name: string, text: string): string {
  return `[text file ${name}]\n${text}\n[end of text file ${name}]`;
}
