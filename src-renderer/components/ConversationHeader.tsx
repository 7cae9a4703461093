import { memo, useMemo, useState, type KeyboardEvent } from 'react';
import { BRAINS, REASONING_LEVELS, isBrainId, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import { reasoningAbility, reasoningLevelsOf } from '../../src-shared/reasoning';
import { openRequestPreview } from '../state/turn-actions';
import { setConversationBrain, setConversationReasoning, switchConversationBrain } from '../state/brain-actions';
import { selectConversationBrain } from '../state/selectors';
import { useAppStore } from '../state/store';
import { brainOptions, type BrainOption } from './brain-options';
import { brainAriaShortcut, brainShortcutLabel, isApplePlatform, nextBrainShortcutLabel } from './brain-shortcuts';
import { ContextMeter } from './ContextMeter';
import { ExportChoosingBar, ExportConversationButton } from './ExportConversation';
import { CodeIcon } from './icons';
import { CollapsedSidebarControls } from './SidebarToggle';

interface ModelPickerProps {
  readonly conversationId: string;
  readonly brain: BrainOption;
  readonly model: string | null;
}

/** Any model id may be typed; the brain's known models are offered. Empty means the brain's default. */
function ModelPicker({ conversationId, brain, model }: ModelPickerProps) {
  const [value, setValue] = useState(model ?? '');
  const listId = `models-${conversationId}`;

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
        title={`Any model id; empty uses ${brain.label}'s default, ${brain.defaultModel}`}
        maxLength={200}
        spellCheck={false}
        onChange={(event) => setValue(event.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
      <datalist id={listId}>
        {brain.models.map((modelId) => (
          <option key={modelId} value={modelId} />
        ))}
      </datalist>
    </>
  );
}

interface BrainSwitchProps {
  readonly conversationId: string;
  readonly activeBrain: BrainId;
  readonly options: readonly BrainOption[];
}

/** One button per brain, in table order, each with its keyboard shortcut. */
const BrainSwitch = memo(function BrainSwitch({ conversationId, activeBrain, options }: BrainSwitchProps) {
  const apple = isApplePlatform();
  return (
    <div
      className="brain-switch"
      role="group"
      aria-label={`Brain for the next reply (${nextBrainShortcutLabel(apple)} for the next brain)`}
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
          {option.label}
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

export function ConversationHeader({ conversationId }: { readonly conversationId: string }) {
  const conversation = useAppStore((state) => state.conversationsById[conversationId]);
  const settings = useAppStore((state) => state.settings);
  const brainId = useAppStore((state) => selectConversationBrain(state, conversationId));
  const options = useMemo(() => brainOptions(settings), [settings]);
  const brain = options.find((option) => option.id === brainId) ?? options[0];

  const onBrainChange = (value: string): void => {
    if (isBrainId(value)) void switchConversationBrain(conversationId, value);
  };

  return (
    <header className="conversation-header">
      <div className="conversation-header-row">
        <CollapsedSidebarControls />
        <h1 className="conversation-heading" title={conversation?.title}>
          {conversation?.title ?? ''}
        </h1>
        <BrainSwitch conversationId={conversationId} activeBrain={brainId} options={options} />
      </div>
      <div className="conversation-header-row">
        <div className="conversation-controls">
          <label className="control">
            <span className="control-label">Brain</span>
            <select
              className="brain-picker"
              data-testid="brain-picker"
              value={brainId}
              onChange={(event) => onBrainChange(event.target.value)}
            >
              {options.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.available ? option.label : `${option.label} (not yet available)`}
                </option>
              ))}
            </select>
          </label>
          {brain === undefined ? null : (
            <label className="control">
              <span className="control-label">Model</span>
              <ModelPicker
                key={`${brain.id}:${conversation?.model ?? ''}`}
                conversationId={conversationId}
                brain={brain}
                model={conversation?.model ?? null}
              />
            </label>
          )}
          <ReasoningPicker conversationId={conversationId} brain={brainId} model={conversation?.model ?? null} level={conversation?.reasoningLevel ?? null} />
        </div>
        <div className="conversation-actions-bar">
          <ContextMeter conversationId={conversationId} />
          <button
            type="button"
            className="button small ghost"
            data-testid="show-request"
            aria-haspopup="dialog"
            title="The exact request the next turn would send, without sending it"
            onClick={openRequestPreview}
          >
            <CodeIcon />
            Show request
          </button>
          <ExportConversationButton conversationId={conversationId} />
        </div>
      </div>
      <ExportChoosingBar conversationId={conversationId} />
    </header>
  );
}
