/**
 * (contract) Transcript v1: the exported and importable form of one conversation.
 * Unknown fields are kept or ignored, never fatal.
 */
import { z } from 'zod';
import { MESSAGE_KINDS, MESSAGE_ROLES, MESSAGE_STATUSES } from './api';

export const TRANSCRIPT_FORMAT = 'anybrain.transcript';
export const TRANSCRIPT_VERSION = 1;

/** Extension: a call's provider-opaque facts. */
export const transcriptInvocationOpaqueSchema = z
  .object({})
  .passthrough()
  .meta({
    description:
      'The call\'s provider-opaque facts, verbatim as the provider sent them (a Gemini call\'s {"thoughtSignature": "…"}), ' +
      'replayed only to the brain and model that made the reply.',
  });

/** A reasoning's opaque carriers: `blocks` is checked to be an array; everything in it, and beside it, is the wire's own. */
export const transcriptReasoningOpaqueSchema = z
  .object({
    blocks: z
      .array(z.unknown())
      .optional()
      .meta({
        description:
          'The wire\'s own reasoning items verbatim, in the order they came: Anthropic thinking and redacted_thinking blocks, ' +
          'Responses reasoning items with encrypted_content, Gemini parts\' {"thoughtSignature": "…"}.',
      }),
  })
  .passthrough()
  .meta({
    description:
      'The reasoning\'s opaque carriers, replayed only to the brain and model that made them. Every field, known or not, ' +
      'is kept verbatim.',
  });

/** Extension: what went wrong with a reply (`TurnError` in snake_case). */
export const transcriptErrorSchema = z
  .object({
    code: z.string().min(1).meta({ description: 'Stable machine code: provider-error, rate-limited, context-too-large, interrupted, …' }),
    message: z.string().meta({ description: 'One sentence a person can act on.' }),
    retryable: z.boolean().meta({ description: 'Whether a retry of the same turn can succeed.' }),
    status: z.number().optional().meta({ description: "The provider's HTTP status, where there was one." }),
    retry_after_seconds: z.number().optional().meta({ description: 'How long the provider asked to wait before a retry, in seconds.' }),
    limit_tokens: z.number().optional().meta({ description: 'A size refusal: the window or limit the provider named, in tokens.' }),
    request_tokens: z.number().optional().meta({ description: 'A size refusal: what the provider counted for the request, in tokens.' }),
  })
  .passthrough()
  .meta({ description: "What went wrong with the reply: a failed reply's error, or the note on an interrupted or cut-short one." });

/** Extension: an image a tool result held, beside its text `output`. */
export const transcriptImageSchema = z
  .object({
    mime_type: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .meta({ description: 'The image\'s MIME type as the tool gave it, e.g. "image/png".' }),
    data: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/)
      .meta({ description: 'The image\'s bytes in base64, exactly as the tool sent them.' }),
  })
  .passthrough()
  .meta({ description: 'An image a tool result held, kept whole; it replays to a brain only as a labelled line.' });

/**
 * Base64's alphabet as transcripts carry bytes: no line breaks. A single character class, since a pattern of repeated
 * groups overflows V8's regular-expression stack on a file of megabytes; the import checks the padding on decoding.
 */
export const TRANSCRIPT_BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;

/** Extension: a file the user attached to a message, named by its content's hash; its bytes only when embedded. */
export const transcriptAttachmentSchema = z
  .object({
    name: z.string().min(1).max(255).meta({ description: 'The file\'s name as the user attached it, e.g. "photo.png".' }),
    media_type: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .meta({ description: 'The media type read from the bytes when the file was attached, e.g. "image/png" or "application/pdf".' }),
    size: z.number().int().nonnegative().meta({ description: 'The file\'s size in bytes.' }),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'is not a SHA-256 digest (64 lower-case hex digits)')
      .meta({ description: 'The SHA-256 digest of the bytes in lower-case hex: the name the file is kept under.' }),
    data_base64: z
      .string()
      .regex(TRANSCRIPT_BASE64_PATTERN, 'is not base64 (A-Z, a-z, 0-9, + and /, padded with =, no line breaks)')
      .optional()
      .meta({
        description:
          'The bytes in base64, when the export embedded them. Absent: the transcript names the file without it, and an ' +
          'import keeps the message with a note that the file was not included.',
      }),
  })
  .passthrough()
  .meta({ description: 'A file attached to the message (an image, a PDF, a text file), in the order it was attached.' });

export const transcriptInvocationSchema = z
  .object({
    id: z.string().min(1),
    kind: z.enum(['tool', 'memory', 'skill']),
    server: z.string().nullable().optional(),
    tool: z.string().min(1),
    provider_call_id: z.string().nullable().optional(),
    input: z.unknown().optional(),
    output: z.string().nullable().optional(),
    status: z.enum(['ok', 'error', 'denied', 'cancelled']),
    /** Extension. */
    opaque: transcriptInvocationOpaqueSchema.nullable().optional(),
    /** Extension. */
    images: z
      .array(transcriptImageSchema)
      .optional()
      .meta({ description: 'The images the result held beside its text output, in the order the tool gave them.' }),
  })
  .passthrough();

const tokenCount = z.number().int().min(0);

/** Extension: what a reply's provider requests cost, summed over its tool rounds. */
export const transcriptUsageSchema = z
  .object({
    requests: z.number().int().min(1).meta({ description: 'How many provider requests the reply made (one per tool round).' }),
    input_tokens: tokenCount.meta({ description: 'Every input token of those requests, the cached ones included, on every provider.' }),
    cache_read_tokens: tokenCount.meta({ description: "The part of the input read from the provider's prompt cache." }),
    cache_write_tokens: tokenCount.meta({ description: "The part of the input written to the provider's prompt cache." }),
    output_tokens: tokenCount,
    reasoning_tokens: tokenCount.meta({ description: 'The part of the output spent reasoning, where the provider says.' }),
    cost_usd: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: 'An estimate in US dollars, from the price list in use when each request was made; null when a price was unknown.' }),
  })
  .passthrough()
  .meta({ description: "What the reply's provider requests counted and cost. Informative: an import does not read it." });

export const transcriptMessageSchema = z
  .object({
    id: z.string().min(1),
    turn_id: z.string().min(1),
    role: z.enum(MESSAGE_ROLES),
    kind: z.enum(MESSAGE_KINDS),
    text: z.string(),
    created_at: z.string().optional(),
    status: z.enum(MESSAGE_STATUSES).optional(),
    brain: z.string().nullable().optional(),
    model_requested: z.string().nullable().optional(),
    model_responded: z.string().nullable().optional(),
    reasoning_level: z.string().nullable().optional(),
    reasoning: z
      .object({ brain: z.string(), model: z.string(), text: z.string(), opaque: transcriptReasoningOpaqueSchema.nullable().optional() })
      .passthrough()
      .nullable()
      .optional(),
    tool_invocations: z.array(transcriptInvocationSchema).optional(),
    /** Extension. */
    error: transcriptErrorSchema.nullable().optional(),
    /** Extension. */
    attachments: z.array(transcriptAttachmentSchema).optional(),
    /** Extension. */
    usage: transcriptUsageSchema.optional(),
    /** Extension: on a summary (`kind: "summary"`), the id of the last message it summarises. */
    covers_through_id: z.string().min(1).nullable().optional(),
    /** Extension: the message this one follows. */
    parent_id: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .meta({
        description:
          'The id of the message this one follows, earlier in the file; null for a first message and for every summary. ' +
          'Several messages following one are alternatives (an edited message, another reply). Absent: the message follows ' +
          'the message before it in the file (summaries aside).',
      }),
  })
  .passthrough();

export const transcriptSchema = z
  .object({
    format: z.literal(TRANSCRIPT_FORMAT),
    version: z.literal(TRANSCRIPT_VERSION),
    conversation: z
      .object({
        id: z.string().min(1),
        title: z.string(),
        created_at: z.string(),
        /** Extension. */
        current_leaf_id: z
          .string()
          .min(1)
          .nullable()
          .optional()
          .meta({
            description:
              'The id of the newest message of the branch shown: the conversation as shown and replayed is the path from it ' +
              'up through parent_id. Absent or null: the last message of the file that is not a summary.',
          }),
      })
      .passthrough(),
    messages: z.array(transcriptMessageSchema),
  })
  .passthrough()
  .meta({
    title: 'Anybrain transcript v1',
    description:
      'One conversation as Anybrain exports and imports it. Unknown fields are kept or ignored, never fatal; ' +
      'a file without the optional extensions reads as before.',
  });

export type TranscriptV1 = z.infer<typeof transcriptSchema>;
export type TranscriptMessage = z.infer<typeof transcriptMessageSchema>;
export type TranscriptInvocation = z.infer<typeof transcriptInvocationSchema>;
export type TranscriptAttachment = z.infer<typeof transcriptAttachmentSchema>;
export type TranscriptError = z.infer<typeof transcriptErrorSchema>;
export type TranscriptUsage = z.infer<typeof transcriptUsageSchema>;
export type TranscriptInvocationOpaque = z.infer<typeof transcriptInvocationOpaqueSchema>;
export type TranscriptReasoningOpaque = z.infer<typeof transcriptReasoningOpaqueSchema>;
