import type { ReactNode } from 'react';
import { MCP_LABEL_MAX_LENGTH } from '../../src-shared/tool-rules';

export interface McpServerFieldValues {
  readonly label: string;
  readonly command: string;
  readonly argumentLines: string;
  readonly environmentLines: string;
}


export const EMPTY_FIELDS: McpServerFieldValues = { label: '', command: '', argumentLines: '', environmentLines: '' };

interface McpServerFieldsProps {
  /** Prefix of the fields' element ids, unique on the page. */
  readonly idPrefix: string;
  /** Prefix of the fields' test ids: `mcp` for the add form, `mcp-edit` for an edit. */
  readonly testIdPrefix: string;
  readonly values: McpServerFieldValues;
  readonly onChange: (values: McpServerFieldValues) => void;
  readonly environmentRows: number;
  readonly environmentLabel: string;
  readonly environmentHint: ReactNode;
  /** Shown above the environment text field: the edit form's stored variables. */
  readonly beforeEnvironment?: ReactNode;
  readonly autoFocus?: boolean;
}

/** The fields shared by the add form and the edit form. */
export function McpServerFields({
  idPrefix,
  testIdPrefix,
  values,
  onChange,
  environmentRows,
  environmentLabel,
  environmentHint,
  beforeEnvironment = null,
  autoFocus = false,
}: McpServerFieldsProps) {
  const set = (field: keyof McpServerFieldValues, value: string): void => onChange({ ...values, [field]: value });
  return (
    <>
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-label`}>Name</label>
        <input
          id={`${idPrefix}-label`}
          type="text"
          data-testid={`${testIdPrefix}-label`}
          maxLength={MCP_LABEL_MAX_LENGTH}
          placeholder="Files"
          autoFocus={autoFocus}
          value={values.label}
          onChange={(event) => set('label', event.target.value)}
        />
      </div>
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-command`}>Command</label>
        <input
          id={`${idPrefix}-command`}
          type="text"
          data-testid={`${testIdPrefix}-command`}
          maxLength={1000}
          spellCheck={false}
          placeholder="npx, or /usr/local/bin/my-server"
          aria-describedby={`${idPrefix}-command-hint`}
          value={values.command}
          onChange={(event) => set('command', event.target.value)}
        />
        <p id={`${idPrefix}-command-hint`} className="field-hint">
          Only the program to run. Servers start without a shell, so pipes, quotes and <code>$VARIABLES</code> do
          nothing here.
        </p>
      </div>
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-args`}>Arguments, one per line</label>
        <textarea
          id={`${idPrefix}-args`}
          className="settings-textarea"
          data-testid={`${testIdPrefix}-args`}
          rows={3}
          spellCheck={false}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/you/notes'}
          aria-describedby={`${idPrefix}-args-hint`}
          value={values.argumentLines}
          onChange={(event) => set('argumentLines', event.target.value)}
        />
        <p id={`${idPrefix}-args-hint`} className="field-hint">
          Each line is passed to the program as one argument, exactly as written: a path with spaces needs no quotes.
          This is never a shell command line.
        </p>
      </div>
      {beforeEnvironment}
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-env`}>{environmentLabel}</label>
        <textarea
          id={`${idPrefix}-env`}
          className="settings-textarea"
          data-testid={`${testIdPrefix}-env`}
          rows={environmentRows}
          spellCheck={false}
          placeholder="API_TOKEN=…"
          aria-describedby={`${idPrefix}-env-hint`}
          value={values.environmentLines}
          onChange={(event) => set('environmentLines', event.target.value)}
        />
        <p id={`${idPrefix}-env-hint`} className="field-hint">
          {environmentHint}
        </p>
      </div>
    </>
  );
}
