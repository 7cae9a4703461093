/**
 * Whether a served model is the one that was asked for. Providers answer with a dated snapshot of an alias
 * (`claude-sonnet-4-6` → `claude-sonnet-4-6-20260215`); that is the same model, anything else is a substitution.
 */
export function isSameModel(requested: string, served: string): boolean {
  if (requested === served) return true;
  if (!served.startsWith(`${requested}-`)) return false;
  return /^(\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$/.test(served.slice(requested.length + 1));
}
