/** Providers by id, as `--provider` names them. */
import type { PollenProvider, WeatherProvider } from './provider.js';
import { SampleProvider, SAMPLE_ID } from './sample/index.js';

export interface ProviderPair {
  pollen: PollenProvider;
  weather: WeatherProvider;
}

const FACTORIES: Record<string, () => ProviderPair> = {
  [SAMPLE_ID]: () => {
    const sample = new SampleProvider();
    return { pollen: sample, weather: sample };
  },
};

/** Ids accepted by `--provider`. */
export const PROVIDER_IDS: readonly string[] = Object.keys(FACTORIES);

/** The pollen and weather providers for an id, or undefined for an unknown one. */
export function providersFor(id: string): ProviderPair | undefined {
  return Object.hasOwn(FACTORIES, id) ? FACTORIES[id]!() : undefined;
}
