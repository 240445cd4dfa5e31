/** The discovery documents: the OpenAPI document and llms.txt. */
import type { Handler } from './handler.js';
import { openApiDocument } from './openapi.js';

const llms = (cities: number) => `# Pollen, weather and air-quality API

> Read-only JSON for ${cities} supported US cities: hourly and daily pollen (tree, grass, weed and species, grains/m³) with NAB risk labels, a cross-city GeoJSON map, and daily weather and air quality. No key needed; every endpoint is a GET.

## Endpoints
- [OpenAPI 3.1 document](/openapi.json): every endpoint, parameter and schema
- /api/cities: supported cities ({name, slug, state, lat, lon, timezone}); use the slug everywhere else
- /api/nearest?lat=..&lon=.. or ?zip=NNNNN (&limit=1..10&max_km=..150): the served cities nearest a point or a ZIP code's centroid, with distance_km; 404 NO_CITY_NEARBY (naming the nearest) or UNKNOWN_ZIP
- /api/available-dates and /api/latest-date: which UTC dates have data
- /api/pollen?city=SLUG&date=YYYY-MM-DD: hourly rows of one city-day; city only: daily rows; date only: one row per city
- /api/map-data?date=YYYY-MM-DD|latest: GeoJSON points with daily maxima and a 3-day series
- /api/weather?city=SLUG&date=YYYY-MM-DD: daily weather and AQI (1..5)
- /api/pollen-range?from=...&to=...&city=a,b&aggregate=none|day&limit=N&format=json|csv: any window (from inclusive, to exclusive; dates or RFC 3339 date-times); a truncated answer (the limit, or 20,000,000 bytes) ends with "next", the same request with after=city,periodStart of its last row: follow it to page
- /api/forecast?city=SLUG&aggregate=none|day: the next 48 hours, cached up to 6 hours; stale: true when the provider could not refresh it; aggregate=day gives one row per day they touch (today and tomorrow)
- /api/alerts?city=SLUG&min=Low|Moderate|High|Very High&categories=tree,grass,weed,ragweed&format=json|ics|atom|jsonfeed: the local days of the next 48 hours on which a category's worst hour reaches min (default High, all categories): each alert has the date, the categories with their risk and peak, the top allergens and a one-line summary; ics is a calendar to subscribe to (webcal://), atom and jsonfeed are feeds. To tell a user whether tomorrow will be bad, use this (or the MCP tool get_alerts) rather than reading hourly rows.
- /data/bulk/index.json: the whole served history as monthly files (pollen-hourly, pollen-daily, weather-daily; Parquet and gzip CSV), with each file's path, rows, bytes, SHA-256 and a data dictionary; use these, not hundreds of pollen-range calls, for long windows (DuckDB: SELECT * FROM 'https://<site>/data/bulk/pollen-hourly-2025-04.parquet')
- /api/health: how fresh the data is (status ok with 200, or stale with 503), the newest hour, the provider

## Notes
- Dates are UTC calendar dates by default. Add timezone=local to /api/pollen, /api/map-data, /api/pollen-range and /api/forecast for each city's local days (its IANA zone, daylight saving included: 23 or 25 hours on change days); timestamps stay UTC, the body says "timezone": "local", and local daily rows say how many hours they hold.
- From a place to a slug: the user's coordinates or ZIP code go to /api/nearest (or MCP find_city); a name goes to MCP find_city or /api/cities. Do this before asking for pollen.
- An unsupported city gives 404 with code UNSUPPORTED_CITY.
- Risk labels: None, Low, Moderate, High, Very High (NAB thresholds; a category is graded by its highest allergen).

## MCP
- A read-only Model Context Protocol server is at /mcp (streamable HTTP, stateless, JSON responses; POST with Accept: application/json, text/event-stream).
- Start with find_city (by name, "Columbus, OH", lat and lon, or zip) to get the slug of where the user is; then ask for pollen.
- Tools: find_city, list_cities, get_latest_date, get_pollen, get_pollen_map, get_weather, get_pollen_range (at most 2000 rows a call), get_forecast, get_alerts (the JSON form of /api/alerts), get_bulk_files (the bulk files' manifest), explain_risk. get_pollen, get_pollen_map, get_pollen_range and get_forecast take timezone ("UTC" or "local"); get_pollen_range and get_forecast take aggregate ("none" or "day"). Every tool is read-only and returns structuredContent plus a JSON text copy.
`;

export const discovery: { openapi: Handler; llms: Handler } = {
  openapi: () => ({ body: openApiDocument() }),
  llms: (_query, ctx) => ({ body: llms(ctx.cities.size), contentType: 'text/plain; charset=utf-8' }),
};
