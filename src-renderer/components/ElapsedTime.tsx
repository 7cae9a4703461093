import { useEffect, useState } from 'react';
import { secondsText } from './format';

const TICK_MS = 1_000;

/** How long a reply has been running, from its start: "12 s", moved on each second while it is shown. */
export function ElapsedTime({ since }: { readonly since: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const startedAt = Date.parse(since);
  if (!Number.isFinite(startedAt)) return null;
  const elapsed = Math.max(0, now - startedAt);
  // Below a second "0 s" would say nothing is happening.
  const text = elapsed < TICK_MS ? '0 s' : secondsText(elapsed);
  return (
    <span className="elapsed-time" data-testid="elapsed-time" role="timer" title="Time since this reply was asked for">
      {text}
    </span>
  );
}
