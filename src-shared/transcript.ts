/**
 * (contract) Transcript v1: the exported and importable form of one conversation.
 * Unknown fields are kept or ignored, never fatal.
 */
import { z } from 'zod';
import { MESSAGE_KINDS, MESSAGE_ROLES, MESSAGE_STATUSES } from './api';

export const TRANSCRIPT_FORMAT = 'anybrain.transcript';
export const TRANSCRIPT_VERSION = 1;

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
  })
  .passthrough();

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
      .object({ brain: z.string(), model: z.string(), text: z.string(), opaque: z.unknown() })
      .passthrough()
      .nullable()
      .optional(),
    tool_invocations: z.array(transcriptInvocationSchema).optional(),
    /** Extension: on a summary (`kind: "summary"`), the id of the last message it summarises. */
    covers_through_id: z.string().min(1).nullable().optional(),
  })
  .passthrough();

export const transcriptSchema = z
  .object({
    format: z.literal(TRANSCRIPT_FORMAT),
    version: z.literal(TRANSCRIPT_VERSION),
    conversation: z
      .object({ id: z.string().min(1), title: z.string(), created_at: z.string() })
      .passthrough(),
    messages: z.array(transcriptMessageSchema),
  })
  .passthrough();

export type TranscriptV1 = z.infer<typeof transcriptSchema>;
export type TranscriptMessage = z.infer<typeof transcriptMessageSchema>;
export type TranscriptInvocation = z.infer<typeof transcriptInvocationSchema>;
