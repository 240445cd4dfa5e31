/** What a provider's number must be to be stored: the one rule every payload's values go through. */

/** A provider number accepted at ingest: finite and not negative; anything else is stored as missing. */
export function measurement(raw: unknown): number | null {
  return typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw : null;
}
