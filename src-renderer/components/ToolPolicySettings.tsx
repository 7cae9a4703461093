import { memo, useState } from 'react';
import { TOOL_POLICY_VALUES, type ToolPolicyValue, type ToolView } from '../../src-shared/api';
import { chipLabel } from '../../src-shared/receipt';
import { errorText } from '../state/api-client';
import { useAppStore } from '../state/store';
import { loadToolsThenServerStatuses, setToolPolicy } from '../state/tool-actions';
import { LearnMore } from './LearnMore';
import { SectionLoadError } from './SectionLoadError';
import { useSectionLoad } from './useSectionLoad';

const POLICY_LABELS: Record<ToolPolicyValue, string> = { allow: 'Allow', ask: 'Ask first', deny: 'Deny' };

function isPolicy(value: string): value is ToolPolicyValue {
  return (TOOL_POLICY_VALUES as readonly string[]).includes(value);
}

const ToolRow = memo(function ToolRow({ tool }: { readonly tool: ToolView }) {
  const [savingPolicy, setSavingPolicy] = useState<ToolPolicyValue | null>(null);
  const [error, setError] = useState<string | null>(null);
  const label = chipLabel(tool.server, tool.tool);

  const onChange = async (value: string): Promise<void> => {
    if (!isPolicy(value)) return;
    setSavingPolicy(value);
    setError(null);
    try {
      await setToolPolicy(tool, value);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setSavingPolicy(null);
    }
  };

  return (
    <tr data-testid="tool-row" data-tool-name={tool.name}>
      <th scope="row">
        <code className="tool-name">{label}</code>
      </th>
      <td className="tool-description">
        <span className="tool-description-text" title={tool.description}>
          {tool.description}
        </span>
        {error === null ? null : (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
      </td>
      <td>
        <select
          data-testid="tool-policy"
          aria-label={`When ${label} may run`}
          value={savingPolicy ?? tool.policy}
          disabled={savingPolicy !== null}
          onChange={(event) => void onChange(event.target.value)}
        >
          {TOOL_POLICY_VALUES.map((policy) => (
            <option key={policy} value={policy}>
              {POLICY_LABELS[policy]}
            </option>
          ))}
        </select>
      </td>
    </tr>
  );
});

export function ToolPolicySettings() {
  const tools = useAppStore((state) => state.tools);
  const load = useSectionLoad(loadToolsThenServerStatuses);

  return (
    <section className="settings-subsection" aria-labelledby="tool-policies-title">
      <h3 id="tool-policies-title">Tools</h3>
      <p className="field-hint">Choose which tools run at once, which ask you first, and which are off.</p>
      <LearnMore about="tool policies">
        <strong>Allow</strong> runs the tool at once, <strong>Ask first</strong> shows the call under the reply and waits
        for your answer, <strong>Deny</strong> tells the brain it may not. Tools of MCP servers ask first until you choose
        otherwise.
      </LearnMore>
      {load.error !== null ? (
        <SectionLoadError what="the tools" error={load.error} onRetry={load.retry} />
      ) : tools === null ? (
        <p className="muted">Loading tools…</p>
      ) : (
        <div className="tool-table-frame">
          <table className="tool-table">
            <colgroup>
              <col className="tool-name-column" />
              <col />
              <col className="tool-policy-column" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">What it does</th>
                <th scope="col">Policy</th>
              </tr>
            </thead>
            <tbody>
              {tools.map((tool) => (
                <ToolRow key={tool.name} tool={tool} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
