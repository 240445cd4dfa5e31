import { describe, expect, it } from 'vitest';
import { CITIES, cityBySlug, SLUGS_IN_ORDER } from '../../src/domain/cities.js';

describe('supported cities', () => {
  it('has at least 30 cities ordered by name', () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(30);
    const names = CITIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('includes Anchorage, Honolulu and the well-known spring-allergy cities', () => {
    for (const slug of ['anchorage', 'honolulu', 'wichita', 'scranton', 'richmond', 'oklahoma-city', 'dallas', 'tulsa']) {
      expect(cityBySlug(slug), slug).toBeDefined();
    }
  });

  it('covers every climate region and every US time zone offset', () => {
    expect(new Set(CITIES.map((c) => c.region)).size).toBe(11);
    const offsets = new Set(
      CITIES.map((c) => new Intl.DateTimeFormat('en-US', { timeZone: c.timezone, timeZoneName: 'shortOffset' }).formatToParts(Date.UTC(2025, 0, 15)).find((p) => p.type === 'timeZoneName')!.value),
    );
    expect([...offsets].sort()).toEqual(['GMT-10', 'GMT-5', 'GMT-6', 'GMT-7', 'GMT-8', 'GMT-9']);
  });

  it('gives each city a unique URL-safe slug, a US position and a valid IANA zone', () => {
    expect(new Set(CITIES.map((c) => c.slug)).size).toBe(CITIES.length);
    for (const c of CITIES) {
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
    expect(SLUGS_IN_ORDER).toEqual([...SLUGS_IN_ORDER].sort());
    expect(SLUGS_IN_ORDER.indexOf('san-antonio')).toBeLessThan(SLUGS_IN_ORDER.indexOf('san-francisco'));
  });
});
