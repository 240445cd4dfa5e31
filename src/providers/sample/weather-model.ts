/** Simulated daily weather and air quality, consistent with the pollen model's rainy days. */
import { aqiFromConcentrations } from '../../domain/aqi.js';
import type { City, ClimateRegion } from '../../domain/cities.js';
import { DAY_MS, dayOfYear, utcOffset } from '../../domain/dates.js';
import type { WeatherField } from '../../domain/weather.js';
import { hashString, normal, unit } from './noise.js';

interface Climate {
  /** Annual mean temperature offset from the latitude rule, °C. */
  warm: number;
  /** Half the summer-winter swing, °C. */
  swing: number;
  humidity: number;
  pm25: number;
  smoke: boolean;
}

/**
 * Alaska's `warm` brings Anchorage near its airport's averages (Wikipedia, "Climate of Anchorage,
 * Alaska": January low and high 11 and 23 °F, -11.7 and -5.0 °C; July 52 and 66 °F, 11.1 and
 * 18.9 °C): a January mean near -9 °C and a July mean near 15 °C, so that its winters freeze.
 */
const CLIMATE: Record<ClimateRegion, Climate> = {
  northeast: { warm: 0, swing: 12, humidity: 65, pm25: 8, smoke: false },
  'upper-midwest': { warm: 0, swing: 15, humidity: 68, pm25: 8, smoke: false },
  'ohio-valley': { warm: 0.5, swing: 12, humidity: 68, pm25: 9, smoke: false },
  southeast: { warm: 0.5, swing: 8, humidity: 74, pm25: 8, smoke: false },
  'northern-rockies-plains': { warm: -2, swing: 14, humidity: 52, pm25: 6, smoke: true },
  south: { warm: 1, swing: 10, humidity: 64, pm25: 9, smoke: false },
  southwest: { warm: 2, swing: 11, humidity: 28, pm25: 7, smoke: true },
  west: { warm: 3, swing: 6, humidity: 55, pm25: 11, smoke: true },
  northwest: { warm: 1.5, swing: 8, humidity: 70, pm25: 6, smoke: true },
  alaska: { warm: -5, swing: 12, humidity: 70, pm25: 4, smoke: true },
  hawaii: { warm: -2, swing: 2, humidity: 70, pm25: 4, smoke: false },
};

const round1 = (v: number): number => Math.round(v * 10) / 10;

/** How far into summer a day of the year is: 1 in mid-July, -1 in mid-January. */
const seasonOf = (day: number): number => Math.cos(((dayOfYear(day) - 200) / 365) * 2 * Math.PI);

/** Whether a city's UTC day is rainy: the pollen model washes those days' pollen out. */
export const rainyDay = (seed: number, day: number): boolean => unit(seed, day, 3) < 0.12;

/**
 * A city's day temperature (°C, `temp_day_c` before rounding) on a UTC day: what the pollen
 * model reads, so that no grass or weed pollen flies on a freezing day of the city's own weather.
 */
export function dayTemperature(city: City): (day: number) => number {
  const seed = hashString(city.slug);
  const c = CLIMATE[city.region];
  const annual = 28 - 0.55 * (city.lat - 25) + c.warm;
  return (day) => annual + c.swing * seasonOf(day) + 2.5 * normal(seed, day, 20) - (rainyDay(seed, day) ? 2 : 0);
}

/** The weather model of one city: measured values for a UTC day, some days missing some fields. */
export function weatherModel(city: City): (day: number) => Partial<Record<WeatherField, unknown>> {
  const seed = hashString(city.slug);
  const c = CLIMATE[city.region];
  const temperature = dayTemperature(city);

  return (day) => {
    const season = seasonOf(day);
    const rainy = rainyDay(seed, day);
    const tempDay = temperature(day);
    const clouds = rainy ? 75 + Math.floor(25 * unit(seed, day, 21)) : Math.floor(70 * unit(seed, day, 22));
    const humidity = Math.min(100, Math.max(5, Math.round(c.humidity + 12 * normal(seed, day, 23) + (rainy ? 15 : 0))));
    const wind = round1(1 + 5 * unit(seed, day, 24));
    const precip = rainy ? round1(1 + 24 * unit(seed, day, 25)) : unit(seed, day, 26) < 0.1 ? round1(unit(seed, day, 27)) : 0;
    const snow = rainy && tempDay < 0;
    const [main, desc] = snow
      ? ['Snow', 'light snow']
      : rainy
        ? ['Rain', 'moderate rain']
        : clouds > 70
          ? ['Clouds', 'overcast clouds']
          : clouds > 25
            ? ['Clouds', 'scattered clouds']
            : ['Clear', 'clear sky'];
    const sunAngle = Math.cos(((city.lat - 23.4 * season) * Math.PI) / 180);
    const uvi = round1(Math.max(0, 11 * sunAngle ** 3 * (1 - clouds / 160)));

    const smoke = c.smoke && season > 0.6 && unit(seed, day, 30) < 0.08 ? 6 + 6 * unit(seed, day, 31) : 1;
    const pm2_5 = round1(c.pm25 * smoke * Math.exp(0.4 * normal(seed, day, 32)) * (rainy ? 0.6 : 1));
    const aq = {
      pm2_5,
      pm10: round1(pm2_5 * (1.4 + 0.6 * unit(seed, day, 33))),
      o3: round1(Math.max(5, 55 + 35 * season + (c.humidity < 40 ? 25 : 0) + 18 * normal(seed, day, 34))),
      no2: round1(Math.max(1, 18 + 10 * normal(seed, day, 35))),
      so2: round1(Math.max(0.1, 3 + 2 * normal(seed, day, 36))),
      co: round1(Math.max(100, 300 + 80 * normal(seed, day, 37))),
    };
    const aqMissing = unit(seed, day, 38) < 0.02;

    return {
      tz: utcOffset(city.timezone, day * DAY_MS + DAY_MS / 2),
      timezone: city.timezone,
      temp_min_c: round1(tempDay - 4 - 3 * unit(seed, day, 28)),
      temp_max_c: round1(tempDay + 3 + 3 * unit(seed, day, 29)),
      temp_day_c: round1(tempDay),
      feels_like_day_c: round1(tempDay > 26 ? tempDay + (humidity - 40) / 10 : tempDay < 10 ? tempDay - wind * 0.7 : tempDay),
      humidity,
      pressure_hpa: Math.round(1013 + 6 * normal(seed, day, 39) - (rainy ? 6 : 0)),
      wind_speed_ms: wind,
      wind_deg: Math.floor(360 * unit(seed, day, 40)),
      clouds_pct: clouds,
      precip_mm: precip,
      uvi: unit(seed, day, 41) < 0.03 ? undefined : uvi,
      weather_main: main,
      weather_desc: desc,
      ...(aqMissing
        ? {}
        : {
            aqi: aqiFromConcentrations(aq),
            aqi_pm2_5: aq.pm2_5,
            aqi_pm10: aq.pm10,
            aqi_o3: aq.o3,
            aqi_no2: aq.no2,
            aqi_so2: aq.so2,
            aqi_co: aq.co,
          }),
    };
  };
}
