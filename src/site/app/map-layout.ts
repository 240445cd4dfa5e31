/**
 * Where the map's markers stand: each marker's box (a circle, and a group's count pill), and the
 * pushing apart of those that overlap at the scale drawn, inside the map. Pure geometry: no DOM.
 */

/** The scale markers are drawn at, and the map's extent in its own units (its viewBox). */
export interface Placing {
  scale: number;
  width: number;
  height: number;
}

/** A marker's radius in the map's units (975 across), as drawn at full width. */
export const MARKER_RADIUS = 11;
/** The smallest a marker's circle is drawn, in CSS px: WCAG 2.2's target size (2.5.8) asks at least 24 by 24. */
export const MARKER_MIN_PX = 26;
/** Rounds of pushing overlapping markers apart before the ones still overlapping are merged into groups. */
const SPREAD_ROUNDS = 200;

/**
 * A group's count: a white pill below and right of its circle, reading "+3" (the worst city and 3
 * more), never a digit on a circle as the levels 0-4 are. Its top left corner, its height, and
 * its width per character and around them, in marker units.
 */
export const PILL = { x: 3, y: 5, height: 13, perChar: 7, pad: 6 };
/** The count a group's pill reads. */
export const pillText = (cities: number): string => `+${cities - 1}`;
export const pillWidth = (text: string): number => PILL.pad + PILL.perChar * text.length;

/** The box a marker covers around its centre, in marker units (unscaled): its circle, and a group's pill. */
export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
export const CIRCLE_BOX: Box = { left: -MARKER_RADIUS, right: MARKER_RADIUS, top: -MARKER_RADIUS, bottom: MARKER_RADIUS };
/** A group's box: its circle and its pill. */
export const groupBox = (cities: number): Box => ({
  ...CIRCLE_BOX,
  right: Math.max(MARKER_RADIUS, PILL.x + pillWidth(pillText(cities))),
  bottom: Math.max(MARKER_RADIUS, PILL.y + PILL.height),
});
/** Space kept between two markers' boxes, in the map's units. */
const MARGIN = 1;

/** A marker to place: the point it stands for, and the box it covers. */
export interface Spot {
  at: readonly [number, number];
  box: Box;
}

/** How far two markers' boxes (scaled, with the margin) overlap across and down; 0 where they do not. */
function overlap(a: readonly number[], ba: Box, b: readonly number[], bb: Box, k: number): [number, number] {
  const across = Math.min(a[0]! + ba.right * k, b[0]! + bb.right * k) - Math.max(a[0]! + ba.left * k, b[0]! + bb.left * k) + MARGIN;
  const down = Math.min(a[1]! + ba.bottom * k, b[1]! + bb.bottom * k) - Math.max(a[1]! + ba.top * k, b[1]! + bb.top * k) + MARGIN;
  return across > 0 && down > 0 ? [across, down] : [0, 0];
}

/**
 * The pairs of markers whose boxes overlap, each once (i < j): swept across the map in order of
 * x, so that a pair further apart than the widest box is never compared.
 */
function overlapping(
  points: ReadonlyArray<readonly number[]>,
  spots: readonly Spot[],
  scale: number,
  slack = 0,
): Array<[number, number, number, number]> {
  const widest = Math.max(0, ...spots.map((s) => (s.box.right - s.box.left) * scale)) + MARGIN;
  const order = points.map((_, i) => i).sort((i, j) => points[i]![0]! - points[j]![0]! || i - j);
  const pairs: Array<[number, number, number, number]> = [];
  for (let m = 0; m < order.length; m++)
    for (let n = m + 1; n < order.length; n++) {
      const [i, j] = [order[m]!, order[n]!];
      if (points[j]![0]! - points[i]![0]! > widest) break;
      const [across, down] = overlap(points[i]!, spots[i]!.box, points[j]!, spots[j]!.box, scale);
      if (across > slack && down > slack) pairs.push([Math.min(i, j), Math.max(i, j), across, down]);
    }
  return pairs;
}

/**
 * Moves markers whose boxes overlap apart (a target under another is no longer 24 px across),
 * each pair along the way it overlaps least, inside the map: where each is drawn, and the pairs
 * that still overlap when the rounds are spent. Deterministic: the same markers and scale give
 * the same places.
 */
export function spread(
  spots: readonly Spot[],
  at: Placing,
): { points: Array<[number, number]>; left: Array<[number, number, number, number]> } {
  const { scale, width, height } = at;
  const points = spots.map((p) => [...p.at] as [number, number]);
  for (let round = 0; round < SPREAD_ROUNDS; round++) {
    const pairs = overlapping(points, spots, scale);
    if (pairs.length === 0) return { points, left: [] };
    for (const [i, j] of pairs) {
      const [a, b] = [points[i]!, points[j]!];
      // Measured again: an earlier pair of this round may have moved them.
      const [across, down] = overlap(a, spots[i]!.box, b, spots[j]!.box, scale);
      if (across <= 0) continue;
      const axis = across <= down ? 0 : 1;
      // The same place on that axis: apart in a direction of their own.
      const sign = b[axis] > a[axis] || (b[axis] === a[axis] && j % 2 === 0) ? 1 : -1;
      const push = (Math.min(across, down) / 2) * sign;
      a[axis] -= push;
      b[axis] += push;
    }
    // Inside the map: a marker pushed past an edge would be cut off.
    points.forEach((q, i) => {
      const { box } = spots[i]!;
      q[0] = Math.min(Math.max(q[0], -box.left * scale + MARGIN), width - box.right * scale - MARGIN);
      q[1] = Math.min(Math.max(q[1], -box.top * scale + MARGIN), height - box.bottom * scale - MARGIN);
    });
  }
  return { points, left: overlapping(points, spots, scale, 0.5) };
}
