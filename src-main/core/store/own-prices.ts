/**
 * Prices the user set for models (Settings → Usage), kept in the `modelPrices` setting by `brain/model`: a model the
 * bundled list does not know, or prices the user's contract sets differently.
 */
import type { PriceFigures } from '../../../src-shared/api';
import { isBrainId, type BrainId } from '../../../src-shared/brains';
import type { AppDatabase } from './open';
import { readSetting, writeSetting } from './settings';

function keyOf(brain: BrainId, model: string): string {
  return `${brain}/${model}`;
}

export function readOwnPrice(db: AppDatabase, brain: BrainId, model: string): PriceFigures | null {
  return readSetting(db, 'modelPrices')?.[keyOf(brain, model)] ?? null;
}

/** Sets the model's price, or clears it (null) so the list's is used again. */
export function writeOwnPrice(db: AppDatabase, brain: BrainId, model: string, price: PriceFigures | null): void {
  const { [keyOf(brain, model)]: _previous, ...others } = readSetting(db, 'modelPrices') ?? {};
  writeSetting(db, 'modelPrices', price === null ? others : { ...others, [keyOf(brain, model)]: price });
}

/** Every model the user priced. */
export function listOwnPrices(db: AppDatabase): Array<{ readonly brain: BrainId; readonly model: string; readonly price: PriceFigures }> {
  return Object.entries(readSetting(db, 'modelPrices') ?? {}).flatMap(([key, price]) => {
    const slash = key.indexOf('/');
    const brain = key.slice(0, slash);
    return isBrainId(brain) ? [{ brain, model: key.slice(slash + 1), price }] : [];
  });
}
