import { useState } from 'react';
import type { BrainTestResult } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';
import { testBrain } from '../state/settings-actions';

/** "Test": one cheap call to the brain, and the provider's answer beside the button. */
export function BrainTest({ brain, label }: { readonly brain: BrainId; readonly label: string }) {
  const [result, setResult] = useState<BrainTestResult | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (): Promise<void> => {
    setBusy(true);
    setResult(null);
    try {
      setResult(await testBrain(brain));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="brain-test">
      <button
        type="button"
        className="button small"
        data-testid="brain-test"
        aria-label={`Test ${label}`}
        disabled={busy}
        onClick={() => void run()}
      >
        {busy ? 'Testing…' : 'Test'}
      </button>
      <p className={result === null ? 'brain-test-result' : `brain-test-result ${result.ok ? 'ok' : 'failed'}`} role="status" data-testid="brain-test-result">
        {result?.message ?? ''}
      </p>
    </div>
  );
}
