/** GET /api/cities: the cities served, by name, with their state (repeated names) and their position and zone. */
import * as z from 'zod';
import { named } from '../../domain/schema-names.js';
import { City as CitySchema } from '../../domain/schemas.js';
import { cityRow } from '../contract/answer-fields.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, once } from '../contract/static-forms.js';

export const CitiesResponse = named('CitiesResponse', 'Every supported city, by name.', z.object({ cities: z.array(CitySchema) }));

export const citiesRoute = route({
  path: '/api/cities',
  params: {},
  response: CitiesResponse,
  doc: {
    operationId: 'listCities',
    summary: 'Supported cities',
    description:
      'Every supported city, alphabetised by name, with its state, position (lat, lon) and IANA time zone (an extension of the contract).',
  },
  llms: 'supported cities ({name, slug, state, lat, lon, timezone}); use the slug everywhere else',
  tool: {
    name: 'list_cities',
    title: 'List supported cities',
    description:
      'Every supported US city with its slug, the name every other tool takes. To find the city of a place the user names, a position or a ZIP code, start with find_city instead.',
  },
  forms: [{ file: `${DATA_PREFIX}/cities.json`, unit: 'once', enumerate: once }],
  handle: (_query, ctx) => ({ body: { cities: ctx.cities.list.map(cityRow) } }),
});
