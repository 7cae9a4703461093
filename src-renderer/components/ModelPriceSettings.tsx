import { useState } from 'react';
import type { ModelPriceView, PriceFigures } from '../../src-shared/api';
import { api } from '../state/api-client';
import { setModelPrice } from '../state/settings-actions';
import { FieldError } from './FieldError';
import { parsePrice, perMillionText, priceText, type PriceTexts } from './price-form';
import { editorKeys, ErrorRow, ModelIdCell, SaveCancel } from './model-table-parts';
import { useAnswerFor } from './use-answer';
import { useBusyChange } from './useBusyChange';

const FIELDS: ReadonlyArray<{ readonly key: keyof PriceTexts; readonly figure: keyof PriceFigures; readonly label: string }> = [
  { key: 'input', figure: 'inputPerMillion', label: 'Input' },
  { key: 'output', figure: 'outputPerMillion', label: 'Output' },
  { key: 'cacheRead', figure: 'cacheReadPerMillion', label: 'Cached read' },
  { key: 'cacheWrite', figure: 'cacheWritePerMillion', label: 'Cache write' },
];

type PriceChange = (brain: ModelPriceView['brain'], model: string, price: PriceFigures | null) => Promise<void>;

function ModelCell({ row }: { readonly row: ModelPriceView }) {
  return <ModelIdCell brain={row.brain} model={row.model} />;
}

function PriceEditor({ row, onSave, onDone }: { readonly row: ModelPriceView; readonly onSave: PriceChange; readonly onDone: () => void }) {
  const start = row.own ?? row.listed;
  const [texts, setTexts] = useState<PriceTexts>({
    input: priceText(start?.inputPerMillion),
    output: priceText(start?.outputPerMillion),
    cacheRead: priceText(start?.cacheReadPerMillion),
    cacheWrite: priceText(start?.cacheWritePerMillion),
  });
  const change = useBusyChange();

  const save = async (): Promise<void> => {
    const parsed = parsePrice(texts);
    if (!parsed.ok) {
      change.setError(parsed.problem);
      return;
    }
    if (await change.run(() => onSave(row.brain, row.model, parsed.value))) onDone();
  };

  const onKeyDown = editorKeys(save, onDone);

  return (
    <>
      <tr data-testid="price-row" data-model={row.model} data-editing="true">
        <ModelCell row={row} />
        {FIELDS.map((field) => (
          <td key={field.key}>
            <input
              type="text"
              inputMode="decimal"
              className="token-input"
              data-testid={`price-input-${field.key}`}
              aria-label={`${field.label} price of ${row.model}, dollars per million tokens`}
              value={texts[field.key]}
              onChange={(event) => setTexts({ ...texts, [field.key]: event.target.value })}
              onKeyDown={onKeyDown}
            />
          </td>
        ))}
        <td />
      </tr>
      {/* Below the fields, so a narrow window keeps them and the buttons in view together. */}
      <tr className="price-editor-actions" data-editing="true">
        <td colSpan={6}>
          <FieldError error={change.error} testId="price-error" />
          <div className="price-editor-buttons">
            <SaveCancel busy={change.busy} save={save} cancel={onDone} saveTestId="save-price" />
          </div>
        </td>
      </tr>
    </>
  );
}

function PriceRow({ row, onSave }: { readonly row: ModelPriceView; readonly onSave: PriceChange }) {
  const [editing, setEditing] = useState(false);
  const reset = useBusyChange();
  if (editing) return <PriceEditor row={row} onSave={onSave} onDone={() => setEditing(false)} />;
  const shown = row.own ?? row.listed;
  return (
    <>
      <tr data-testid="price-row" data-model={row.model} data-source={row.own !== null ? 'own' : row.listed !== null ? 'list' : 'unknown'}>
        <ModelCell row={row} />
        {shown === null ? (
          <td colSpan={4} className="price-unknown" data-testid="price-unknown">
            Not in the price list: its replies show no cost until you set one.
          </td>
        ) : (
          FIELDS.map((field) => (
            <td key={field.key} className="usage-number" data-testid={`price-${field.key}`}>
              {perMillionText(shown[field.figure])}
            </td>
          ))
        )}
        <td className="model-window-actions">
          {row.own === null ? null : <span className="price-own-mark">Yours</span>}
          <button type="button" className="button small ghost" data-testid="edit-price" aria-label={`Set the price of ${row.model}`} onClick={() => setEditing(true)}>
            {shown === null ? 'Set' : 'Edit'}
          </button>
          {row.own === null ? null : (
            <button
              type="button"
              className="button small ghost"
              data-testid="reset-price"
              aria-label={`Price ${row.model} by the list again`}
              disabled={reset.busy}
              onClick={() => void reset.run(() => onSave(row.brain, row.model, null))}
            >
              Reset
            </button>
          )}
        </td>
      </tr>
      <ErrorRow error={reset.error} columns={6} testId="price-error" />
    </>
  );
}

/**
 * The price each model's requests are given, in dollars per million tokens: the bundled list's, or the user's own
 * (a model the list does not know, or a contract's prices). `onChanged`: every counted request of the model was priced
 * again, so sums shown elsewhere are out of date.
 */
export function ModelPriceSettings({ onChanged }: { readonly onChanged: () => void }) {
  const { answer } = useAnswerFor<ModelPriceView[]>('prices', () => api().getModelPrices({}));
  const [saved, setSaved] = useState<ModelPriceView[] | null>(null);
  const rows = saved ?? (answer?.status === 'ready' ? answer.value : null);
  const save: PriceChange = async (brain, model, price) => {
    setSaved(await setModelPrice(brain, model, price));
    onChanged();
  };
  return (
    <section className="settings-section usage-section" aria-labelledby="prices-heading">
      <h3 id="prices-heading">Prices</h3>
      <p className="field-hint">
        Dollars per million tokens, from the price list bundled with this release. Set your own for a model the list does
        not know, or where your contract differs: it prices every request of that model, earlier ones included. An empty
        cache price charges cached input as ordinary input.
      </p>
      {answer?.status === 'error' ? (
        <p className="field-error" role="alert">
          {answer.message}
        </p>
      ) : rows === null ? null : (
        <div className="tool-table-frame">
          <table className="tool-table model-window-table price-table" data-testid="price-table">
            <thead>
              <tr>
                <th scope="col">Model</th>
                {FIELDS.map((field) => (
                  <th key={field.key} scope="col" className="usage-number">
                    {field.label}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <PriceRow key={`${row.brain}/${row.model}`} row={row} onSave={save} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
