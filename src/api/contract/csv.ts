/** CSV as RFC 4180 writes it, for /api/pollen-range?format=csv and the bulk files' twins. */

/** A field: empty for null, quoted when it holds a comma, a quote or a line break. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = String(v);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
