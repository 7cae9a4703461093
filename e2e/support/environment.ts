/** What the global setup hands to the tests, through the environment the workers inherit. */
export interface E2eEnvironment {
  /** The web host's launch URL, its token in the `#token=` fragment. */
  readonly launchUrl: string;
  /** The web host's origin. */
  readonly origin: string;
  /** The fake brains' control URL. */
  readonly fakeBrainsUrl: string;
  /** The data folder the web host uses. */
  readonly dataDir: string;
  /** `ANYBRAIN_<BRAIN>_BASE_URL` values pointing at the fake brains. */
  readonly baseUrlEnv: Record<string, string>;
}

const VARIABLE = 'ANYBRAIN_E2E_ENVIRONMENT';

export function writeE2eEnvironment(environment: E2eEnvironment): void {
  process.env[VARIABLE] = JSON.stringify(environment);
}

export function readE2eEnvironment(): E2eEnvironment {
  const raw = process.env[VARIABLE];
  if (!raw) throw new Error('The end-to-end environment is missing: run these tests through `npx playwright test`.');
  return JSON.parse(raw) as E2eEnvironment;
}
