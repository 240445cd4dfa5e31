/**
 * The months each tree allergen's pollen is in the air, by climate region: the sample puts a tree
 * species' pollen only inside these windows, so that the demo shows oak in spring and no birch in
 * Tucson, as a real deploy would. Months are inclusive (`[3, 4]` is March to April; `[10, 4]` runs
 * over New Year); a second window is a second, weaker season (the autumn elms).
 *
 * Sources (each region stood for by the cities its sources measure; they give flowering months,
 * peak months or air-sampler seasons, not one common definition):
 * - south: University of Tulsa aerobiology (tulsapollen.com, monthly pages February to April and
 *   the Quercus, Ulmus and Juniperus ashei pages; pollen.utulsa.edu/trees.htm: "a few elms flower
 *   and produce pollen in the Fall, usually in September and early October"); Oklahoma Allergy &
 *   Asthma Clinic, "Pollen seasons" (pine to late June). Mountain cedar (J. ashei, "during
 *   December and January often with the peak occurring in mid-January") is the sample's
 *   MOUNTAIN_CEDAR, for the central Texas and Oklahoma cities only.
 * - southwest: University of Arizona, "Flowering months (Tucson)" tree table
 *   (allergy.peds.arizona.edu/southwest/trees_shrubs/treetable.html); it lists no birch, maple or pine.
 * - west: allergylosangeles.com, "Los Angeles pollen counts" (peak months); Allergy & Asthma
 *   Institute of Northern California, aaifnc.org/pollen-counts (birch, pine).
 * - northwest: Bellingham allergy seasons (asthmaallergywhat.com) and the Northwest Asthma &
 *   Allergy Center as Seattle Met reports it ("maple, hazelnut, cedar/juniper, alder, elm, birch
 *   and cottonwood/poplar" from March through April; ash and oak "later in April and May"); no
 *   mulberry or pine given.
 * - northeast: Kosisky & Carpenter, Ann Allergy Asthma Immunol 1997;78:381 (Washington DC:
 *   "February through June encompasses the major part of our tree season", elms again "August
 *   through October"), their 1998-2005 survey (peaks in April or May, Cupressaceae in February or
 *   March), and Children's Hospital of Philadelphia ("birch, elm, oak March to April or May").
 *   Taxa they give no months for take the tree season's February to June.
 * - ohio-valley: Southwest Ohio Air Quality Agency ("Oak, cedar, mulberry, maple, elm, poplar ...
 *   from late March through mid-July"); ash, birch and pine not named.
 * - upper-midwest: Minnesota Department of Health, Minneapolis station ("trees ... typically
 *   starting in early April and ending in late-May"), for every taxon.
 * - northern-rockies-plains: Family Allergy & Asthma Care, Montana (Chinese and Siberian elm
 *   "bloom in March and April"); the rest as the upper Midwest's, the nearest calendar.
 * - southeast: no per-taxon calendar found; the south's (Tulsa), the nearest.
 * - alaska: J. H. Anderson, University of Alaska Fairbanks pollen calendar (Foundation Health:
 *   "main pollen season, late April through July", core May 10 to June 5; "alder, willow,
 *   poplar/aspen, birch and spruce"), Anchorage Daily News 2012 (birch "four-to-six week period
 *   that usually begins in early May").
 * - hawaii: no calendar found, so the sample gives Hawaii no tree allergens.
 */
import type { ClimateRegion } from '../../domain/cities.js';

/** A window of months, inclusive, with its strength relative to the species' main season. */
export type MonthWindow = readonly [from: number, to: number, strength?: number];
type Calendar = Readonly<Record<string, readonly MonthWindow[]>>;

/**
 * Tulsa's autumn elms pollinate "usually in September and early October": September alone here,
 * so that the tree year from 1 October (docs/decisions.md, "Seasons") starts with the cedar.
 */
const SOUTH: Calendar = {
  Ash: [[3, 4]],
  Birch: [[3, 4]],
  'Cypress / Juniper / Cedar': [[2, 3]],
  Elm: [
    [2, 3],
    [9, 9, 0.5],
  ],
  Maple: [[2, 3]],
  Mulberry: [[3, 4]],
  Oak: [[3, 4]],
  Pine: [[4, 6]],
  'Poplar / Cottonwood': [[3, 4]],
};

const UPPER_MIDWEST: Calendar = Object.fromEntries(
  ['Ash', 'Birch', 'Cypress / Juniper / Cedar', 'Elm', 'Maple', 'Mulberry', 'Oak', 'Pine', 'Poplar / Cottonwood'].map((t) => [t, [[4, 5]]]),
);

export const TREE_CALENDAR: Readonly<Record<ClimateRegion, Calendar>> = {
  south: SOUTH,
  southeast: SOUTH,
  southwest: {
    Ash: [[3, 5]],
    'Cypress / Juniper / Cedar': [[10, 4]],
    Elm: [[2, 4]],
    Mulberry: [[2, 3]],
    Oak: [[3, 6]],
    'Poplar / Cottonwood': [[1, 3]],
  },
  west: {
    Ash: [[1, 3]],
    Birch: [[3, 4]],
    'Cypress / Juniper / Cedar': [[1, 4]],
    Elm: [
      [2, 3],
      [8, 10, 0.5],
    ],
    Maple: [[4, 5]],
    Mulberry: [[3, 4]],
    Oak: [[2, 4]],
    Pine: [[2, 5]],
    'Poplar / Cottonwood': [[2, 3]],
  },
  northwest: {
    Ash: [[4, 5]],
    Birch: [[3, 4]],
    'Cypress / Juniper / Cedar': [[2, 4]],
    Elm: [[3, 4]],
    Maple: [[3, 4]],
    Oak: [[4, 5]],
    'Poplar / Cottonwood': [[3, 4]],
  },
  northeast: {
    Ash: [[2, 6]],
    Birch: [[3, 5]],
    'Cypress / Juniper / Cedar': [[2, 3]],
    Elm: [
      [3, 4],
      [8, 10, 0.5],
    ],
    Maple: [[2, 6]],
    Mulberry: [[4, 5]],
    Oak: [[3, 5]],
    Pine: [[4, 5]],
    'Poplar / Cottonwood': [[2, 6]],
  },
  'ohio-valley': {
    'Cypress / Juniper / Cedar': [[4, 7]],
    Elm: [[4, 7]],
    Maple: [[4, 7]],
    Mulberry: [[4, 7]],
    Oak: [[4, 7]],
    'Poplar / Cottonwood': [[4, 7]],
  },
  'upper-midwest': UPPER_MIDWEST,
  'northern-rockies-plains': { ...UPPER_MIDWEST, Elm: [[3, 4]] },
  alaska: {
    Birch: [[5, 6]],
    'Poplar / Cottonwood': [[4, 7]],
  },
  hawaii: {},
};
