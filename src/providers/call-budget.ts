/** Daily call budgets kept in the store's ledger: ingest stops short of a reserve kept for forecasts. */
import { dayOf, dayString } from '../domain/dates.js';
import type { CallPurpose, Store } from '../store/store.js';
import type { CallLedger } from './http-client.js';
import { ProviderError } from './provider.js';

export interface Budget {
  /** Calls a provider allows per UTC day; null for no limit. */
  daily: number | null;
  /** Calls of that budget that only forecasts may use. */
  forecastReserve: number;
}

/** Counts each call of one provider and purpose in the store, refusing those over budget. */
export class StoreLedger implements CallLedger {
  constructor(
    private readonly store: Store,
    private readonly provider: string,
    private readonly budget: Budget,
    private readonly purpose: CallPurpose,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a call of `weight` (rounded up, as the provider counts it), unless that would exceed the budget. */
  reserve(weight = 1): void {
    const day = dayString(dayOf(this.now()));
    const calls = Math.ceil(weight);
    const { daily, forecastReserve } = this.budget;
    if (daily !== null) {
      const used = this.store.ledger.callsOn(this.provider, day);
      const limit = this.purpose === 'ingest' ? daily - forecastReserve : daily;
      if (used.ingest + used.forecast + calls > limit) {
        throw new ProviderError(
          this.provider,
          'quota',
          `daily budget spent: ${used.ingest + used.forecast} of ${daily} calls used on ${day}${this.purpose === 'ingest' ? `, ${forecastReserve} kept for forecasts` : ''}${calls > 1 ? `; the next call weighs ${calls}` : ''}`,
        );
      }
    }
    this.store.ledger.record(this.provider, day, this.purpose, calls);
  }

  /** Calls left today for this purpose; null without a limit. */
  left(): number | null {
    const { daily, forecastReserve } = this.budget;
    if (daily === null) return null;
    const used = this.store.ledger.callsOn(this.provider, dayString(dayOf(this.now())));
    return Math.max(0, (this.purpose === 'ingest' ? daily - forecastReserve : daily) - used.ingest - used.forecast);
  }
}
