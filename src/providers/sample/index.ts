/**
 * The bundled sample provider: simulated, deterministic, keyless and offline. Its data is
 * plausible but invented; it exists to run and demo the service without any account.
 */
import type { City } from '../../domain/cities.js';
import { HOUR_MS } from '../../domain/dates.js';
import type { DayValues } from '../../domain/day-values.js';
import { SIMULATED_PROVIDER } from '../../domain/provenance.js';
import {
  type Coverage,
  type DaySpan,
  type HourSpan,
  openCoverage,
  type PastForecaster,
  type PastForecasts,
  type PollenBatch,
  type PollenProvider,
  type RawWeatherDay,
  type WeatherProvider,
} from '../provider.js';
import { forecastModel, MAX_FORECAST_HOURS, pastForecastModel, type SampleForecaster } from './forecast-model.js';
import { pollenModel, type SampleCityModel } from './pollen-model.js';
import { weatherModel } from './weather-model.js';

/** The sample's id: answers mark its values simulated (domain/provenance.ts). */
export const SAMPLE_ID = SIMULATED_PROVIDER;

/** The sample provider, which serves both pollen and weather. */
export class SampleProvider implements PollenProvider, WeatherProvider, PastForecasts {
  readonly id = SAMPLE_ID;
  readonly resolution = 'hourly';
  readonly maxDaysPerCall = 31;
  private readonly models = new Map<string, SampleCityModel>();
  private readonly forecasters = new Map<string, SampleForecaster>();

  private model(city: City): SampleCityModel {
    let m = this.models.get(city.slug);
    if (!m) this.models.set(city.slug, (m = pollenModel(city)));
    return m;
  }

  private hours(city: City, first: number, count: number): PollenBatch {
    const model = this.model(city);
    const hours = [];
    for (let h = first; h < first + count; h++) {
      const row = model.hourly(h);
      if (row) hours.push(row);
    }
    return { timezone: city.timezone, hours };
  }

  /** Every hour up to the last whole one; weather up to yesterday. */
  coverage(now: number): Coverage {
    return openCoverage(Math.floor(now / HOUR_MS));
  }

  async pollenHistory(city: City, hours: HourSpan): Promise<PollenBatch> {
    return this.hours(city, hours.from, hours.to - hours.from);
  }

  async pollenForecast(city: City, now: number): Promise<PollenBatch> {
    return this.pollenForecastIssued(city, now, 48);
  }

  /**
   * The forecast as it was (or is) issued at `issuedAt` (ms since epoch), from the hour that holds
   * it, for `hours` hours (1 to 192): not the later history, but that history with a forecast's
   * errors (forecast.ts), the same every time it is asked.
   */
  async pollenForecastIssued(city: City, issuedAt: number, hours: number): Promise<PollenBatch> {
    return this.pastForecastHours(city, issuedAt, hours);
  }

  /** The same, at once. */
  pastForecastHours(city: City, issuedAt: number, hours: number): PollenBatch {
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_FORECAST_HOURS)
      throw new RangeError(`a sample forecast covers 1 to ${MAX_FORECAST_HOURS} hours, not ${hours}`);
    let f = this.forecasters.get(city.slug);
    if (!f) this.forecasters.set(city.slug, (f = forecastModel(city, this.model(city))));
    return { timezone: city.timezone, hours: f.issued(Math.floor(issuedAt / HOUR_MS), hours) };
  }

  /**
   * Its past forecasts, made from the history's day values rather than its hours (forecast.ts,
   * `pastForecastModel`): what a forecast issued then would have said of each day, by the same errors.
   */
  pastForecaster(city: City, daily: (day: number) => DayValues | undefined): PastForecaster {
    return pastForecastModel(city, daily);
  }

  async weatherHistory(city: City, span: DaySpan): Promise<RawWeatherDay[]> {
    const model = weatherModel(city);
    const days: RawWeatherDay[] = [];
    for (let day = span.from; day <= span.to; day++) days.push({ day, values: model(day) });
    return days;
  }
}
