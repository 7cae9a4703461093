/**
 * What a provider itself says about its models when asked for its list: the witness that wins over the bundled
 * catalogue. Every field a provider does not report is null, and the catalogue answers for it.
 */
import type { BrainId } from '../brains';
import type { ModelStage } from './entry';

export interface ReportedModel {
  readonly id: string;
  readonly displayName: string | null;
  /** When the provider says the model was released or created (ISO 8601), for newest-first order. */
  readonly createdAt: string | null;
  /** Tokens one request may hold (Anthropic's `max_input_tokens`, Gemini's `inputTokenLimit`, Moonshot's `context_length`, Ollama's trained length). */
  readonly contextWindow: number | null;
  /** The most tokens one reply may take. */
  readonly outputLimit: number | null;
  readonly images: boolean | null;
  readonly pdfs: boolean | null;
  readonly thinking: boolean | null;
  /** False for a model the provider lists but that cannot chat (an embedding model, an image generator). */
  readonly chats: boolean;
  readonly lifecycle: ModelStage | null;
  /** The announced retirement date (`YYYY-MM-DD`), or null. */
  readonly retiresAt: string | null;
}

/** One brain's answer, as stored: the base URL it came from and when. */
export interface ReportedModels {
  readonly brain: BrainId;
  readonly baseUrl: string;
  /** ISO 8601. */
  readonly fetchedAt: string;
  readonly models: readonly ReportedModel[];
}

export function reportedModel(id: string, facts: Partial<Omit<ReportedModel, 'id'>> = {}): ReportedModel {
  return {
    id,
    displayName: null,
    createdAt: null,
    contextWindow: null,
    outputLimit: null,
    images: null,
    pdfs: null,
    thinking: null,
    chats: true,
    lifecycle: null,
    retiresAt: null,
    ...facts,
  };
}

/** "today", "yesterday", "3 days ago" or the date: how old an answer is, in the words a figure's source uses. */
export function spokenAge(fetchedAt: string, now: Date): string {
  const fetched = new Date(fetchedAt);
  if (Number.isNaN(fetched.getTime())) return 'at an unknown time';
  const day = (date: Date): number => Math.floor(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86_400_000);
  const days = day(now) - day(fetched);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return `on ${fetchedAt.slice(0, 10)}`;
}
