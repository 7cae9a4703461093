/**
 * Each brain's own model list, asked for and kept: when the user presses Test, when a key is stored, and, in a
 * long-running host, once a day per brain in use. The stored answer is the witness the windows and the picker read
 * before the bundled catalogue. Asking never blocks a turn, and a failed background ask changes nothing.
 */
import { BRAIN_IDS, BRAINS, type BrainId } from '../../src-shared/brains';
import type { ReportedModel } from '../../src-shared/models/reported';
import type { ResolvedConnection } from './brain-connection';
import { listModels, type ModelListAnswer, type ModelListRequest } from './providers/list-models';
import { lookUpOllamaWindow, type OllamaShowOptions, type OllamaWindow } from './providers/ollama-show';
import { withOllamaShow } from './providers/reported-models';
import type { AppDatabase } from './store/open';
import { readReportedModels, readReportedModelsFrom, writeReportedModels } from './store/provider-models';

/** An answer older than this is asked for again by a long-running host. */
export const MODEL_LIST_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How often a long-running host looks for answers past their age. */
export const MODEL_LIST_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** Ollama is asked `/api/show` for at most this many of its models per refresh: a local server answers each from disk. */
export const OLLAMA_SHOWN_MODELS_MAX = 64;

export type RefreshAnswer =
  | { readonly ok: true; readonly models: readonly ReportedModel[] }
  /** `answered`: the server gave an HTTP answer; `sent`: false when nothing left this machine (no key, a refused URL). */
  | { readonly ok: false; readonly answered: boolean; readonly sent: boolean; readonly message: string };

export interface ModelReportsDependencies {
  readonly db: AppDatabase;
  readonly connectionOf: (brain: BrainId) => ResolvedConnection;
  readonly now?: () => Date;
  readonly listModels?: (request: ModelListRequest) => Promise<ModelListAnswer>;
  readonly ollamaShow?: (baseUrl: string, model: string, signal: AbortSignal | undefined, options: OllamaShowOptions) => Promise<OllamaWindow | null>;
}

export class ModelReports {
  private readonly now: () => Date;
  private readonly list: (request: ModelListRequest) => Promise<ModelListAnswer>;
  private readonly show: NonNullable<ModelReportsDependencies['ollamaShow']>;
  private readonly running = new Map<BrainId, Promise<RefreshAnswer>>();
  private readonly stopping = new AbortController();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly dependencies: ModelReportsDependencies) {
    this.now = dependencies.now ?? (() => new Date());
    this.list = dependencies.listModels ?? listModels;
    this.show = dependencies.ollamaShow ?? lookUpOllamaWindow;
  }

  /** Asks the brain for its list now and stores the answer; one ask per brain at a time. */
  refresh(brain: BrainId): Promise<RefreshAnswer> {
    const running = this.running.get(brain);
    if (running !== undefined) return running;
    const asking = this.ask(brain).finally(() => this.running.delete(brain));
    this.running.set(brain, asking);
    return asking;
  }

  private async ask(brain: BrainId): Promise<RefreshAnswer> {
    const info = BRAINS[brain];
    const connection = this.dependencies.connectionOf(brain);
    // The same refusals as a turn: a list must not carry the key where a turn would not.
    if (connection.problem) return { ok: false, answered: false, sent: false, message: connection.problem.message };
    if (info.keyVariable !== null && connection.apiKey === null) {
      return { ok: false, answered: false, sent: false, message: `No ${info.label} key yet: add one, or set ${info.keyVariable}. Nothing was sent.` };
    }
    const answer = await this.list({ wire: info.wire, baseUrl: connection.baseUrl, apiKey: connection.apiKey, signal: this.stopping.signal });
    if (!answer.ok) return { ...answer, sent: true };
    const models = brain === 'ollama' ? await this.withOllamaDetails(connection, answer.models) : answer.models;
    // A host closing meanwhile has closed the database too.
    if (this.stopping.signal.aborted) return { ok: true, models };
    writeReportedModels(this.dependencies.db, { brain, baseUrl: connection.baseUrl, fetchedAt: this.now().toISOString(), models });
    return { ok: true, models };
  }

  /** `/api/tags` names the models; `/api/show` tells each one's trained length and abilities, one at a time. */
  private async withOllamaDetails(connection: ResolvedConnection, models: readonly ReportedModel[]): Promise<ReportedModel[]> {
    const detailed: ReportedModel[] = [];
    for (const [index, model] of models.entries()) {
      if (index >= OLLAMA_SHOWN_MODELS_MAX || this.stopping.signal.aborted) {
        detailed.push(model);
        continue;
      }
      const shown = await this.show(connection.baseUrl, model.id, this.stopping.signal, { apiKey: connection.apiKey });
      detailed.push(shown === null ? model : withOllamaShow(model, shown.trainedContextLength, shown.capabilities));
    }
    return detailed;
  }

  /**
   * Asks again, in the background, every brain in use whose answer is missing or older than a day: a brain with a key,
   * and a keyless brain (Ollama) that has answered before. Failures are left for the next check.
   */
  refreshStale(): void {
    for (const brain of BRAIN_IDS) {
      if (this.stopping.signal.aborted || !this.isStale(brain)) continue;
      void this.refresh(brain).catch(() => undefined);
    }
  }

  private isStale(brain: BrainId): boolean {
    const connection = this.dependencies.connectionOf(brain);
    if (connection.problem) return false;
    // A keyless brain (Ollama) is in use once it has answered, from any address.
    const inUse = BRAINS[brain].keyVariable === null ? readReportedModels(this.dependencies.db, brain) !== null : connection.apiKey !== null;
    if (!inUse) return false;
    const stored = readReportedModelsFrom(this.dependencies.db, brain, connection.baseUrl);
    if (stored === null) return true;
    const age = this.now().getTime() - new Date(stored.fetchedAt).getTime();
    return !(age >= 0 && age < MODEL_LIST_MAX_AGE_MS);
  }

  /** In a long-running host, asks in the background (a key was just stored); elsewhere the next Test asks. */
  refreshSoon(brain: BrainId): void {
    if (this.timer === null || this.stopping.signal.aborted) return;
    void this.refresh(brain).catch(() => undefined);
  }

  /** For a long-running host: a check now and then every hour until `dispose`. */
  keepFresh(): void {
    if (this.timer !== null) return;
    this.refreshStale();
    this.timer = setInterval(() => this.refreshStale(), MODEL_LIST_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  /** Settles when no ask is in flight. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  /** Stops the timer, cuts off the asks in flight (nothing they learn is stored) and waits for them to end. */
  async dispose(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.idle();
  }
}
