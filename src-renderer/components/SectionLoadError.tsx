interface SectionLoadErrorProps {
  readonly what: string;
  readonly error: string;
  readonly onRetry: () => void;
}

export function SectionLoadError({ what, error, onRetry }: SectionLoadErrorProps) {
  return (
    <div className="section-error" role="alert">
      <span>
        Could not load {what}: {error}
      </span>
      <button type="button" className="button small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
