import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { BRAINS, REASONING_LEVELS, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import { deprecationNotice, lifecycleLabel, retiredModelRefusal } from '../../src-shared/models/lifecycle';
import type { ReportedModel } from '../../src-shared/models/reported';
import { reasoningAbility, reasoningLevelsOf } from '../../src-shared/reasoning';
import { setConversationBrain, setConversationReasoning, switchConversationBrain } from '../state/brain-actions';
import { selectConversationBrain } from '../state/selectors';
import { useAppStore } from '../state/store';
import { brainOptions, type BrainOption } from './brain-options';
import { brainAriaShortcut, brainShortcutLabel, isApplePlatform, nextBrainShortcutLabel } from './brain-shortcuts';

interface ModelPickerProps {
  readonly conversationId: string;
  readonly brain: BrainOption;
  readonly model: string | null;
}

/**
 * Any model id may be typed; the brain's known models are offered, and the models its provider listed when the brain
 * was tested. Empty means the brain's default.
 */
function ModelPicker({ conversationId, brain, model }: ModelPickerProps) {
  const listed = useAppStore((state) => state.listedModels[brain.id]);
  const offered = useMemo(() => [...new Set([...brain.models, ...(listed ?? [])])], [brain.models, listed]);
  const [value, setValue] = useState(model ?? '');
  const effectiveModel = model ?? brain.defaultModel;
  const reportedOf = (modelId: string) => brain.reported.get(modelId) ?? null;
  const lifecycleNotice = modelLifecycleNotice(brain.id, effectiveModel, reportedOf(effectiveModel));
  const listId = `models-${conversationId}`;
  // A committed model (from here or elsewhere) replaces the text; keeping the field mounted keeps its focus.
  const [shownModel, setShownModel] = useState(model);
  if (shownModel !== model) {
    setShownModel(model);
    setValue(model ?? '');
  }

  const commit = (): void => {
    const trimmed = value.trim();
    if (trimmed === (model ?? '')) return;
    void setConversationBrain(conversationId, brain.id, { model: trimmed === '' ? null : trimmed });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      setValue(model ?? '');
    }
  };

  return (
    <>
      <input
        className="model-picker"
        data-testid="model-picker"
        aria-label="Model"
        list={listId}
        value={value}
        placeholder={brain.defaultModel}
        title={lifecycleNotice ?? `Any model id; empty uses ${brain.label}'s default, ${brain.defaultModel}`}
        aria-invalid={retiredModelRefusal(brain.id, effectiveModel, reportedOf(effectiveModel)) !== null}
        maxLength={200}
        spellCheck={false}
        onChange={(event) => setValue(event.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
      <datalist id={listId}>
        {offered.map((modelId) => (
          <option key={modelId} value={modelId} label={lifecycleLabel(brain.id, modelId, reportedOf(modelId)) ?? undefined} />
        ))}
      </datalist>
    </>
  );
}

/** The sentence for a model that is deprecated or shut down, else null. */
function modelLifecycleNotice(brain: BrainId, model: string, reported: ReportedModel | null): string | null {
  return retiredModelRefusal(brain, model, reported) ?? deprecationNotice(brain, model, reported);
}

/** Under the model field: what a deprecated or shut-down model means, and what to pick instead. */
function ModelLifecycleNote({ brain, model }: { readonly brain: BrainOption; readonly model: string | null }) {
  const shown = model ?? brain.defaultModel;
  const notice = modelLifecycleNotice(brain.id, shown, brain.reported.get(shown) ?? null);
  if (notice === null) return null;
  return (
    <p className="model-lifecycle" role="note" data-testid="model-lifecycle">
      {notice}
    </p>
  );
}

interface BrainSwitchProps {
  readonly conversationId: string;
  readonly activeBrain: BrainId;
  readonly options: readonly BrainOption[];
}

const BRAIN_KEY_STEPS: Readonly<Record<string, (index: number, count: number) => number>> = {
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/** One button per brain, in table order, each with its keyboard shortcut; arrow keys move between them. */
const BrainSwitch = memo(function BrainSwitch({ conversationId, activeBrain, options }: BrainSwitchProps) {
  const apple = isApplePlatform();
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const step = BRAIN_KEY_STEPS[event.key];
    if (step === undefined) return;
    const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('.brain-switch-button'));
    const index = buttons.findIndex((button) => button === document.activeElement);
    event.preventDefault();
    buttons[step(Math.max(index, 0), buttons.length)]?.focus();
  };
  return (
    <div
      className="brain-switch"
      role="group"
      aria-label={`Brain for the next reply (${nextBrainShortcutLabel(apple)} for the next brain)`}
      onKeyDown={onKeyDown}
    >
      {options.map((option) => (
        <button
          key={option.id}
          type="button"
          className="brain-switch-button"
          data-testid={`brain-switch-${option.id}`}
          aria-pressed={option.id === activeBrain}
          aria-keyshortcuts={brainAriaShortcut(option.id, apple)}
          title={`${option.label}${option.available ? '' : ' (not yet available)'} (${brainShortcutLabel(option.id, apple)})`}
          onClick={() => void switchConversationBrain(conversationId, option.id)}
        >
          <span className="brain-switch-name">{option.label}</span>
          <span className="brain-switch-shortcut" aria-hidden="true">
            {brainShortcutLabel(option.id, apple)}
          </span>
        </button>
      ))}
    </div>
  );
});

const REASONING_LABELS: Record<ReasoningLevel, string> = { off: 'Off', low: 'Low', medium: 'Medium', high: 'High' };

function isReasoningLevel(value: string): value is ReasoningLevel {
  return (REASONING_LEVELS as readonly string[]).includes(value);
}

interface ReasoningPickerProps {
  readonly conversationId: string;
  readonly brain: BrainId;
  /** The conversation's model, or null for the brain's default model. */
  readonly model: string | null;
  readonly level: ReasoningLevel | null;
}

/** Empty means the model's own default level; only the levels the model has are offered. */
function ReasoningPicker({ conversationId, brain, model, level }: ReasoningPickerProps) {
  const ability = reasoningAbility(brain, model ?? BRAINS[brain].defaultModel);
  const levels = reasoningLevelsOf(ability);
  const defaultLevel = ability.defaultLevel;
  const onChange = (value: string): void => {
    const picked = isReasoningLevel(value) ? value : null;
    if (picked !== level) void setConversationReasoning(conversationId, picked);
  };
  return (
    <label className="control">
      <span className="control-label">Reasoning</span>
      <select
        className="reasoning-picker"
        data-testid="reasoning-picker"
        value={level !== null && levels.includes(level) ? level : ''}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Default ({REASONING_LABELS[defaultLevel].toLowerCase()})</option>
        {levels.map((option) => (
          <option key={option} value={option}>
            {REASONING_LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The header's one brain control: a compact button naming the brain and model, opening a panel with the seven
 * brains, the model field and the reasoning level. The panel stays mounted while closed (hidden) so the brains'
 * pressed state can be read at any time; Esc or a click outside closes it.
 */
export function BrainPicker({ conversationId }: { readonly conversationId: string }) {
  const conversation = useAppStore((state) => state.conversationsById[conversationId]);
  const settings = useAppStore((state) => state.settings);
  const brainId = useAppStore((state) => selectConversationBrain(state, conversationId));
  const options = useMemo(() => brainOptions(settings), [settings]);
  const brain = options.find((option) => option.id === brainId) ?? options[0];
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const apple = isApplePlatform();
  const model = conversation?.model ?? null;
  const modelShown = model ?? brain?.defaultModel ?? '';

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLButtonElement>('.brain-switch-button[aria-pressed="true"]')?.focus();
    const onPointerDown = (event: PointerEvent): void => {
      if (!(event.target instanceof Node) || rootRef.current?.contains(event.target) !== true) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape') return;
    // The model field's own Esc puts its typed text back first; a second Esc closes the panel.
    if (event.target instanceof HTMLInputElement && event.target.value !== (model ?? '')) return;
    event.preventDefault();
    event.stopPropagation();
    setOpen(false);
    triggerRef.current?.focus();
  };

  return (
    <div className="brain-picker-root" ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className="brain-picker-button"
        data-testid="brain-picker"
        data-brain={brainId}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={panelId}
        title={`Brain, model and reasoning for the next reply (${nextBrainShortcutLabel(apple)} for the next brain)`}
        onClick={() => setOpen((shown) => !shown)}
      >
        <span className="brain-picker-brain">{brain?.label}</span>
        <span className="brain-picker-model" data-testid="brain-picker-model">
          {modelShown}
        </span>
        <svg className="brain-picker-chevron" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
          <path d="M2 3.5 5 6.5 8 3.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </button>
      <div
        ref={panelRef}
        id={panelId}
        className="brain-picker-panel"
        role="dialog"
        aria-label="Brain for the next reply"
        data-testid="brain-picker-panel"
        hidden={!open}
        onKeyDown={onPanelKeyDown}
      >
        <BrainSwitch conversationId={conversationId} activeBrain={brainId} options={options} />
        <div className="brain-picker-fields">
          {brain === undefined ? null : (
            <label className="control">
              <span className="control-label">Model</span>
              <ModelPicker key={brain.id} conversationId={conversationId} brain={brain} model={model} />
            </label>
          )}
          {brain === undefined ? null : <ModelLifecycleNote brain={brain} model={model} />}
          <ReasoningPicker conversationId={conversationId} brain={brainId} model={model} level={conversation?.reasoningLevel ?? null} />
        </div>
      </div>
    </div>
  );
}
