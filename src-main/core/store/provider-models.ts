/**
 * The providers' own model lists, one row per brain, replaced whole by each answer. A row is read back through the same
 * lenient reading as a wire answer: a field that is not what it should be is dropped, never trusted.
 */
import { eq } from 'drizzle-orm';
import { BRAIN_IDS, type BrainId } from '../../../src-shared/brains';
import { MODEL_STAGES, type ModelStage } from '../../../src-shared/models/entry';
import { reportedModel, type ReportedModel, type ReportedModels } from '../../../src-shared/models/reported';
import { providerModels } from '../../../db/schema';
import type { AppDatabase } from './open';

export function writeReportedModels(db: AppDatabase, answer: ReportedModels): void {
  const row = { baseUrl: answer.baseUrl, fetchedAt: answer.fetchedAt, models: answer.models };
  db.insert(providerModels)
    .values({ brain: answer.brain, ...row })
    .onConflictDoUpdate({ target: providerModels.brain, set: row })
    .run();
}

export function readReportedModels(db: AppDatabase, brain: BrainId): ReportedModels | null {
  const row = db.select().from(providerModels).where(eq(providerModels.brain, brain)).get();
  if (row === undefined || !Array.isArray(row.models)) return null;
  return { brain, baseUrl: row.baseUrl, fetchedAt: row.fetchedAt, models: row.models.flatMap(storedModel) };
}

/** The brain's stored answer if it came from `baseUrl`: a list from another server or proxy names other models. */
export function readReportedModelsFrom(db: AppDatabase, brain: BrainId, baseUrl: string): ReportedModels | null {
  const answer = readReportedModels(db, brain);
  return answer !== null && answer.baseUrl.replace(/\/+$/, '') === baseUrl.replace(/\/+$/, '') ? answer : null;
}

/** What the provider at `baseUrl` last said of `model`, or null. */
export function readReportedModel(db: AppDatabase, brain: BrainId, baseUrl: string, model: string): ReportedModel | null {
  return readReportedModelsFrom(db, brain, baseUrl)?.models.find((candidate) => candidate.id === model) ?? null;
}

/** Every brain's stored answer, for Settings and the picker. */
export function readAllReportedModels(db: AppDatabase): Partial<Record<BrainId, ReportedModels>> {
  const answers: Partial<Record<BrainId, ReportedModels>> = {};
  for (const brain of BRAIN_IDS) {
    const answer = readReportedModels(db, brain);
    if (answer !== null) answers[brain] = answer;
  }
  return answers;
}

export function forgetReportedModels(db: AppDatabase, brain: BrainId): void {
  db.delete(providerModels).where(eq(providerModels.brain, brain)).run();
}

function storedModel(value: unknown): ReportedModel[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const fields = value as Record<string, unknown>;
  const id = fields['id'];
  if (typeof id !== 'string' || id === '') return [];
  const text = (key: string): string | null => (typeof fields[key] === 'string' ? (fields[key] as string) : null);
  const count = (key: string): number | null => {
    const number = fields[key];
    return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
  };
  const flag = (key: string): boolean | null => (typeof fields[key] === 'boolean' ? (fields[key] as boolean) : null);
  const stage = text('lifecycle');
  return [
    reportedModel(id, {
      displayName: text('displayName'),
      createdAt: text('createdAt'),
      contextWindow: count('contextWindow'),
      outputLimit: count('outputLimit'),
      images: flag('images'),
      pdfs: flag('pdfs'),
      thinking: flag('thinking'),
      chats: flag('chats') ?? true,
      lifecycle: stage !== null && (MODEL_STAGES as readonly string[]).includes(stage) ? (stage as ModelStage) : null,
      retiresAt: text('retiresAt'),
    }),
  ];
}
