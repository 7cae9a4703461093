import type { ExportFormat } from '../../src-shared/api';
import type { ExportIncludes } from '../state/export-slice';

const FORMAT_LABELS: Record<ExportFormat, { readonly label: string; readonly hint: string }> = {
  md: { label: 'Markdown', hint: '.md, plain text to read or paste' },
  html: { label: 'Web page', hint: '.html, one styled file to share or print' },
  json: { label: 'Transcript', hint: '.json, everything, to import again' },
};

/** The readable formats first: most exports are to share. */
const FORMAT_ORDER: readonly ExportFormat[] = ['md', 'html', 'json'];

interface ExportOptionsFieldsProps extends ExportIncludes {
  /** Keeps the radio group's name and hint ids apart from another dialog's. */
  readonly idPrefix: string;
  readonly format: ExportFormat;
  readonly onChange: (change: Partial<ExportIncludes & { readonly format: ExportFormat }>) => void;
}

/** The format and what the export shows beyond the words; JSON takes no choice, as it always carries everything. */
export function ExportOptionsFields({ idPrefix, format, includeTools, includeReasoning, includeBranches, onChange }: ExportOptionsFieldsProps) {
  const isJson = format === 'json';
  const hintId = `${idPrefix}-includes-hint`;
  return (
    <>
      <fieldset className="export-fieldset">
        <legend className="field-label">Format</legend>
        <div className="export-choices">
          {FORMAT_ORDER.map((option) => (
            <label key={option} className="export-choice">
              <input
                type="radio"
                name={`${idPrefix}-format`}
                value={option}
                data-testid={`${idPrefix}-format-${option}`}
                aria-labelledby={`${idPrefix}-format-${option}-label`}
                aria-describedby={`${idPrefix}-format-${option}-hint`}
                checked={format === option}
                onChange={() => onChange({ format: option })}
              />
              <span className="export-choice-label" id={`${idPrefix}-format-${option}-label`}>
                {FORMAT_LABELS[option].label}
              </span>
              <span className="export-choice-hint" id={`${idPrefix}-format-${option}-hint`}>
                {FORMAT_LABELS[option].hint}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="export-fieldset">
        <legend className="field-label">Include</legend>
        <label className="checkbox-field">
          <input
            type="checkbox"
            data-testid={`${idPrefix}-include-tools`}
            checked={isJson || includeTools}
            disabled={isJson}
            aria-describedby={isJson ? hintId : undefined}
            onChange={(event) => onChange({ includeTools: event.target.checked })}
          />
          Include tool calls
        </label>
        <label className="checkbox-field">
          <input
            type="checkbox"
            data-testid={`${idPrefix}-include-reasoning`}
            checked={isJson || includeReasoning}
            disabled={isJson}
            aria-describedby={isJson ? hintId : undefined}
            onChange={(event) => onChange({ includeReasoning: event.target.checked })}
          />
          Include reasoning
        </label>
        <label className="checkbox-field">
          <input
            type="checkbox"
            data-testid={`${idPrefix}-include-branches`}
            checked={isJson || includeBranches}
            disabled={isJson}
            aria-describedby={isJson ? hintId : undefined}
            onChange={(event) => onChange({ includeBranches: event.target.checked })}
          />
          Include every branch
        </label>
        {isJson ? (
          <p className="field-hint" id={hintId}>
            A transcript always carries everything: every tool call and all reasoning, with their signatures, and every branch.
          </p>
        ) : null}
      </fieldset>
    </>
  );
}
