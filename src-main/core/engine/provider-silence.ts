/** A provider that holds a turn's request without answering, reported while it does (see ProviderSilence). */
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import type { NotAnswering } from '../outside/not-answering';
import { hostOf } from '../providers/provider-errors';
import type { ProviderSilence } from '../providers/stream-parts';

/** How long a provider may hold a request without answering before the window says so. */
export const PROVIDER_SILENCE_MS = 10_000;

/** Reports `brain`'s server while it holds a request without answering. */
export function providerSilence(notAnswering: NotAnswering, brain: BrainId, baseUrl: string): ProviderSilence {
  const { label } = BRAINS[brain];
  const host = hostOf(baseUrl);
  const key = `provider:${brain}`;
  // A local server loads the model before its first word, which can take a while for a large one.
  const loading = brain === 'ollama' ? '; it may still be loading the model' : '';
  return {
    afterMs: PROVIDER_SILENCE_MS,
    silent: () =>
      notAnswering.report(key, 'provider', `${label} (${host})`, `${label} (${host}) has taken the request but not answered in ${PROVIDER_SILENCE_MS / 1000} s${loading}. Stop ends the wait.`),
    answered: () => notAnswering.answered(key),
  };
}
