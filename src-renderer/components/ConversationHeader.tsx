import { useState, type KeyboardEvent } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../src-shared/api';
import { isBrainId, type BrainId } from '../../src-shared/brains';
import { exportConversation, setConversationBrain, showNotice } from '../state/actions';
import { errorText } from '../state/api-client';
import { useAppStore } from '../state/store';
import { brainOptions, type BrainOption } from './brain-options';

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
    void setConversationBrain(conversationId, brain.id, trimmed === '' ? null : trimmed);
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

function downloadExport(filename: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

function ExportPicker({ conversationId }: { readonly conversationId: string }) {
  const onChange = async (format: string): Promise<void> => {
    if (!isExportFormat(format)) return;
    try {
      const exported = await exportConversation(conversationId, format);
      downloadExport(exported.filename, exported.mimeType, exported.content);
    } catch (error) {
      showNotice(`Could not export: ${errorText(error)}`);
    }
  };
  return (
    <select
      className="export-picker"
      aria-label="Export conversation"
      value=""
      onChange={(event) => void onChange(event.target.value)}
    >
      <option value="">Export…</option>
      <option value="md">Markdown (.md)</option>
      <option value="html">Web page (.html)</option>
      <option value="json">Transcript (.json)</option>
    </select>
  );
}

export function ConversationHeader({ conversationId }: { readonly conversationId: string }) {
  const conversation = useAppStore((state) => state.conversationsById[conversationId]);
  const settings = useAppStore((state) => state.settings);
  const options = brainOptions(settings);
  const brainId: BrainId = conversation?.brain ?? settings?.defaultBrain ?? 'claude';
  const brain = options.find((option) => option.id === brainId) ?? options[0];

  const onBrainChange = (value: string): void => {
    // A model id belongs to one brain, so a new brain starts on its default model.
    if (isBrainId(value) && value !== conversation?.brain) void setConversationBrain(conversationId, value, null);
  };

  return (
    <header className="conversation-header">
      <h1 className="conversation-heading" title={conversation?.title}>
        {conversation?.title ?? ''}
      </h1>
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
        <ExportPicker conversationId={conversationId} />
      </div>
    </header>
  );
}
