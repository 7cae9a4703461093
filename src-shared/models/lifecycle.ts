/**
 * What a model's place in its provider's life cycle means for a turn: a retired model is refused before anything is
 * sent, a deprecated one is used with a notice naming its retirement and replacement. The provider's own word (its
 * model list's `lifecycle`, `retires_at` or `shutdown_date`) beats the catalogue's; the replacement is the catalogue's.
 */
import { BRAINS, type BrainId } from '../brains';
import { findModel } from './catalogue';
import type { ModelLifecycle } from './entry';
import type { ReportedModel } from './reported';

/** The model's life cycle: as its provider reported it, else as the catalogue has it. */
export function modelLifecycle(brain: BrainId, model: string, reported: ReportedModel | null = null): ModelLifecycle {
  const catalogued = findModel(brain, model).entry.lifecycle;
  const replacement = catalogued.stage === 'active' ? null : catalogued.replacement;
  if (reported === null || reported.lifecycle === null) return catalogued;
  const stage = reported.lifecycle;
  switch (stage) {
    case 'active':
      return { stage: 'active' };
    case 'deprecated':
      return { stage: 'deprecated', retiresAt: reported.retiresAt, replacement };
    case 'retired':
      return { stage: 'retired', retiredOn: reported.retiresAt, replacement };
    default: {
      const unknownStage: never = stage;
      throw new Error(`Unknown life-cycle stage ${JSON.stringify(unknownStage)}`);
    }
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "9 March 2026" for 2026-03-09. */
export function spokenDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined || !(month >= 1 && month <= 12)) return isoDate;
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

function instead(replacement: string | null): string {
  return replacement === null ? 'Pick another model in the model picker.' : `Pick ${replacement} in the model picker instead.`;
}

/** The sentence refusing a turn to a retired model, or null when the model is still answered. */
export function retiredModelRefusal(brain: BrainId, model: string, reported: ReportedModel | null = null): string | null {
  const lifecycle = modelLifecycle(brain, model, reported);
  if (lifecycle.stage !== 'retired') return null;
  const when = lifecycle.retiredOn === null ? '' : ` on ${spokenDate(lifecycle.retiredOn)}`;
  return `${BRAINS[brain].label}'s model ${model} was shut down${when}, so Anybrain sends it nothing. ${instead(lifecycle.replacement)}`;
}

/** A picker's short word for a model that is not active ("deprecated · retires 22 January 2027"), else null. */
export function lifecycleLabel(brain: BrainId, model: string, reported: ReportedModel | null = null): string | null {
  const lifecycle = modelLifecycle(brain, model, reported);
  switch (lifecycle.stage) {
    case 'active':
      return null;
    case 'deprecated':
      return lifecycle.retiresAt === null ? 'deprecated' : `deprecated · retires ${spokenDate(lifecycle.retiresAt)}`;
    case 'retired':
      return 'shut down';
    default: {
      const unknownStage: never = lifecycle;
      throw new Error(`Unknown life-cycle stage ${JSON.stringify(unknownStage)}`);
    }
  }
}

function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * The notice a turn to a deprecated model carries, or null when the model is not deprecated. A retirement date already
 * past means the retirement is overdue, not done: the model may stop answering any day.
 */
export function deprecationNotice(brain: BrainId, model: string, reported: ReportedModel | null = null, today: string = todayIso()): string | null {
  const lifecycle = modelLifecycle(brain, model, reported);
  if (lifecycle.stage !== 'deprecated') return null;
  const when =
    lifecycle.retiresAt === null
      ? 'is to be retired'
      : lifecycle.retiresAt < today
        ? `was due to retire on ${spokenDate(lifecycle.retiresAt)}, so it may stop answering any day`
        : `retires on ${spokenDate(lifecycle.retiresAt)}`;
  return `${BRAINS[brain].label}'s model ${model} is deprecated and ${when}. ${instead(lifecycle.replacement)}`;
}
