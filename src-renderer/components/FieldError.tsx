/** A refusal or problem shown under the control it belongs to; nothing while there is none. */
export function FieldError({ error, testId }: { readonly error: string | null; readonly testId?: string }) {
  if (error === null) return null;
  return (
    <p className="field-error" role="alert" data-testid={testId}>
      {error}
    </p>
  );
}
