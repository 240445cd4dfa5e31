import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';

describe('supported cities', () => {
  it('has at least 30 cities ordered by name', () => {
    expect(DEFAULT_CITIES.list.length).toBeGreaterThanOrEqual(30);
    const names = DEFAULT_CITIES.list.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('includes Anchorage, Honolulu and the well-known spring-allergy cities', () => {
    for (const slug of ['anchorage', 'honolulu', 'wichita', 'scranton', 'richmond', 'oklahoma-city', 'dallas', 'tulsa']) {
      expect(DEFAULT_CITIES.get(slug), slug).toBeDefined();
    }
  });

  it('covers every climate region and every US time zone offset', () => {
    expect(new Set(DEFAULT_CITIES.list.map((c) => c.region)).size).toBe(11);
    const offsets = new Set(
      DEFAULT_CITIES.list.map(
        (c) =>
          new Intl.DateTimeFormat('en-US', { timeZone: c.timezone, timeZoneName: 'shortOffset' })
            .formatToParts(Date.UTC(2025, 0, 15))
            .find((p) => p.type === 'timeZoneName')!.value,
      ),
    );
    expect([...offsets].sort()).toEqual(['GMT-10', 'GMT-5', 'GMT-6', 'GMT-7', 'GMT-8', 'GMT-9']);
  });

  it('gives each city a unique URL-safe slug, a US position and a valid IANA zone', () => {
    expect(new Set(DEFAULT_CITIES.list.map((c) => c.slug)).size).toBe(DEFAULT_CITIES.list.length);
    for (const c of DEFAULT_CITIES.list) {
      expect(c.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.lat).toBeGreaterThan(18);
      expect(c.lat).toBeLessThan(72);
      expect(c.lon).toBeLessThan(-66);
      expect(c.lon).toBeGreaterThan(-180);
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: c.timezone })).not.toThrow();
      expect(c.state).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('orders slugs bytewise for cross-city rows', () => {
    expect(DEFAULT_CITIES.slugs).toEqual([...DEFAULT_CITIES.slugs].sort());
    expect(DEFAULT_CITIES.slugs.indexOf('san-antonio')).toBeLessThan(DEFAULT_CITIES.slugs.indexOf('san-francisco'));
  });
});
