import type { ExportFormat } from '../../src-shared/api';
import type { ExportIncludes } from '../state/export-slice';

const FORMAT_LABELS: Record<ExportFormat, { readonly label: string; readonly hint: string }> = {
  md: { label: 'Markdown', hint: '.md, plain text to read or paste' },
  html: { label: 'Web page', hint: '.html, one styled file to share or print' },
  json: { label: 'Transcript', hint: '.json, everything, to import again' },
};

/** The readable formats first: most exports are to share. */
const FORMAT_ORDER: readonly ExportFormat[] = ['md', 'html', 'json'];

/**
 * What an export may show beyond the words. A transcript always carries the calls, reasoning and branches (`always`);
 * the attachments' bytes are a choice in every format.
 */
const INCLUDE_CHOICES: ReadonlyArray<{ readonly field: keyof ExportIncludes; readonly testId: string; readonly label: string; readonly always: boolean }> = [
  { field: 'includeTools', testId: 'include-tools', label: 'Include tool calls', always: true },
  { field: 'includeReasoning', testId: 'include-reasoning', label: 'Include reasoning', always: true },
  { field: 'includeBranches', testId: 'include-branches', label: 'Include every branch', always: true },
  { field: 'includeAttachments', testId: 'include-attachments', label: 'Include attachments', always: false },
];

interface ExportOptionsFieldsProps extends ExportIncludes {
  /** Keeps the radio group's name and hint ids apart from another dialog's. */
  readonly idPrefix: string;
  readonly format: ExportFormat;
  readonly onChange: (change: Partial<ExportIncludes & { readonly format: ExportFormat }>) => void;
}

/** The format and what the export shows beyond the words; JSON takes only the attachments, as it carries the rest always. */
export function ExportOptionsFields({ idPrefix, format, onChange, ...includes }: ExportOptionsFieldsProps) {
  const isJson = format === 'json';
  const hintId = `${idPrefix}-includes-hint`;
  // A download is one file: Markdown with its attachments beside it comes as a zip.
  const filesBeside = format === 'md' && includes.includeAttachments;
  const filesHintId = `${idPrefix}-attachments-hint`;
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
        {INCLUDE_CHOICES.map(({ field, testId, label, always }) => {
          const fixed = isJson && always;
          const described = fixed ? hintId : field === 'includeAttachments' && filesBeside ? filesHintId : undefined;
          return (
            <label key={field} className="checkbox-field">
              <input
                type="checkbox"
                data-testid={`${idPrefix}-${testId}`}
                checked={fixed || includes[field]}
                disabled={fixed}
                aria-describedby={described}
                onChange={(event) => onChange({ [field]: event.target.checked })}
              />
              {label}
            </label>
          );
        })}
        {isJson ? (
          <p className="field-hint" id={hintId}>
            A transcript always carries every tool call and all reasoning, with their signatures, and every branch. With
            attachments included it carries their files too, so an import restores them.
          </p>
        ) : null}
        {filesBeside ? (
          <p className="field-hint" id={filesHintId}>
            Attached files go in a folder beside the Markdown file, so a conversation with attachments downloads as a .zip of
            both.
          </p>
        ) : null}
      </fieldset>
    </>
  );
}
