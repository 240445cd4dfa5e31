/**
 * How the risk labels are given, in words: the OpenAPI document's methodology and the MCP
 * `explain_risk` tool both say it from here, so the two never differ.
 */
import { THRESHOLDS } from '../../domain/species/risk.js';

export const RISK_RULES: readonly string[] = [
  `Risk follows NAB thresholds [t1, t2, t3] in grains/m³: tree ${THRESHOLDS.tree.join('/')}, grass ${THRESHOLDS.grass.join('/')}, weed and ragweed ${THRESHOLDS.weed.join('/')}.`,
  'null (no measurement) stays null; 0 is None.',
  'Below t1 is Low; from t1 Moderate; from t2 High; from t3 Very High. A value equal to a threshold takes the higher label.',
  'A category is graded by its highest single allergen when the species object has numbers for it, otherwise by the category value.',
  'Daily rows average the day\'s hours (a UTC day, or with timezone "local" the city\'s local day), nulls skipped, rounded; risk_* grade the unrounded means; peak_* and peak_risk_* give the worst hour.',
  'Map and cross-city values are daily maxima; map risks are the worst hourly risk; sev_* run from 0 (null or None) to 4 (Very High).',
];
