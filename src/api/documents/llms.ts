/** llms.txt, a short guide for agents: its endpoints and MCP tools come from the route list. */
import { listed } from '../../domain/words.js';
import { metaOf } from '../contract/query.js';
import { type Route, toolArguments } from '../contract/route.js';
import { takingParam } from './openapi.js';

/** "get_pollen and get_forecast take timezone (...)": the tools with an argument, or nothing when none has it. */
function takes(routes: readonly Route[], argument: string, values: string): string {
  const tools = routes.filter((r) => r.tool && toolArguments(r).some((a) => a.name === argument)).map((r) => r.tool!.name);
  return tools.length === 0 ? '' : `${listed(tools)} ${tools.length === 1 ? 'takes' : 'take'} ${argument} (${values})`;
}

/** A route's request as llms.txt shows it, each parameter with its shape: `/api/map-data?date=YYYY-MM-DD|latest&timezone=UTC|local`. */
const requestShape = (r: Route): string => {
  const query = Object.entries(r.params).flatMap(([name, schema]) => {
    const meta = metaOf(schema);
    return meta.listed === false ? [] : [`${name}=${meta.shape}`];
  });
  return query.length === 0 ? r.path : `${r.path}?${query.join('&')}`;
};

/** llms.txt for the routes and the number of cities served. */
export function llmsText(routes: readonly Route[], cities: number): string {
  const endpoints = routes.flatMap((r) => (r.llms ? [`- ${requestShape(r)}: ${r.llms}`] : []));
  const tools = [
    'find_city',
    ...routes.flatMap((r) => (r.tool ? [`${r.tool.name}${r.tool.note ? ` (${r.tool.note})` : ''}`] : [])),
    'explain_risk',
  ];
  const options = [takes(routes, 'timezone', '"UTC" or "local"'), takes(routes, 'aggregate', '"none" or "day"')].filter(Boolean);
  return `# Pollen, weather and air-quality API

> Read-only JSON for ${cities} supported US cities: hourly and daily pollen (tree, grass, weed and species, grains/m³) with NAB risk labels, a cross-city GeoJSON map, and daily weather and air quality. No key needed; every endpoint is a GET.

## Endpoints
- [OpenAPI 3.1 document](/openapi.json): every endpoint, parameter and schema
${endpoints.join('\n')}

## Notes
- Dates are UTC calendar dates by default. Add timezone=local to ${listed(takingParam(routes, 'timezone'))} for each city's local days (its IANA zone, daylight saving included: 23 or 25 hours on change days); timestamps stay UTC, the body says "timezone": "local", and local daily rows say how many hours they hold.
- From a place to a slug: the user's coordinates or ZIP code go to /api/nearest (or MCP find_city); a name goes to MCP find_city or /api/cities. Do this before asking for pollen.
- An unsupported city gives 404 with code UNSUPPORTED_CITY.
- Every answer with values names its provider; simulated: true means the values are the bundled sample provider's, invented for demonstration: say so, and never give them as real pollen levels.
- Risk labels: None, Low, Moderate, High, Very High (NAB thresholds; a category is graded by its highest allergen).
- Seasons (/api/season, MCP get_season): the main pollen season by the percentage method (from the day the year's cumulative sum of daily means reaches 2.5% of its total to the day it reaches 97.5%; Nilsson & Persson 1981, terms of Galán et al. 2017), its peak day, SPIn and APIn (grains·day/m³), days by risk level, and comparison.years: ahead_pct (this year's cumulative sum against each complete earlier year's at the same day of the year) and start_difference_days. Tree's year starts on 1 October. For the year under way, status says where each season stands (not started, in season, ended; an end is provisional until the year is complete): tell people that rather than the percentage method's start and end; with one earlier year the answer compares with that year, not a normal. These are a provider's modelled concentrations for a point, not station counts, and a few years are not a climate: say so when answering.

## MCP
- A read-only Model Context Protocol server is at /mcp (streamable HTTP, stateless, JSON responses; POST with Accept: application/json, text/event-stream).
- Start with find_city (by name, "Columbus, OH", lat and lon, or zip) to get the slug of where the user is; then ask for pollen.
- Tools: ${tools.join(', ')}.${options.length > 0 ? ` ${options.join('; ')}.` : ''} Every tool is read-only and returns structuredContent plus a JSON text copy.
`;
}
