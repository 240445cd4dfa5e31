/** Daily call budgets kept in the store's ledger: ingest stops short of a reserve kept for forecasts. */
import { dayOf, dayString } from '../domain/dates.js';
import type { CallPurpose, Store } from '../store/store.js';
import type { CallLedger } from './http.js';
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

  reserve(): void {
    const day = dayString(dayOf(this.now()));
    const { daily, forecastReserve } = this.budget;
    if (daily !== null) {
      const used = this.store.callsOn(this.provider, day);
      const limit = this.purpose === 'ingest' ? daily - forecastReserve : daily;
      if (used.ingest + used.forecast >= limit) {
        throw new ProviderError(this.provider, 'quota', `daily budget spent: ${used.ingest + used.forecast} of ${daily} calls used on ${day}${this.purpose === 'ingest' ? `, ${forecastReserve} kept for forecasts` : ''}`);
      }
    }
    this.store.recordCalls(this.provider, day, this.purpose);
  }
}
