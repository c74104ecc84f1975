import type { SourcesResponse } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { kindAvailable, kindPrice, searchPrice, unavailableText } from '../src/lib/sources.ts';

const sources: SourcesResponse = {
  sandbox: false,
  kinds: {
    tel: { available: false, price: 1, sources: { wpData: 'not_configured' } },
    email: { available: true, price: 2, sources: { hibpData: 'live', emailData: 'not_configured' } },
    rc: { available: false, price: 1, sources: { rc: 'not_configured' } },
  },
  prices: { tel: 1, email: 2, rc: 1, leak: 3 },
};

describe('searchPrice', () => {
  it('tells the price of every paid kind, the leak search included, and null for an unknown one', () => {
    expect(searchPrice(sources, 'leak')).toBe(3);
    expect(searchPrice(sources, 'email')).toBe(2);
    expect(searchPrice(sources, 'verification:pan')).toBeNull();
    expect(searchPrice(undefined, 'tel')).toBeNull();
  });
});

describe('kindAvailable', () => {
  it("follows the deployment's answer", () => {
    expect(kindAvailable(sources, 'tel')).toBe(false);
    expect(kindAvailable(sources, 'email')).toBe(true);
    expect(kindAvailable(sources, 'rc')).toBe(false);
  });

  it('counts a kind as available while not known: the server then answers 503 itself', () => {
    expect(kindAvailable(undefined, 'tel')).toBe(true);
    expect(kindAvailable(sources, 'upi')).toBe(true);
  });
});

describe('unavailableText', () => {
  it('names the lookup or the search type', () => {
    expect(unavailableText('tel')).toBe(
      'Phone lookups are not available in this deployment (no source configured).',
    );
    expect(unavailableText('email')).toBe(
      'Email lookups are not available in this deployment (no source configured).',
    );
    expect(unavailableText('rc')).toBe(
      'RC searches are not available in this deployment (no source configured).',
    );
    expect(unavailableText('corporate:corporate_gstin')).toBe(
      'GSTIN Details searches are not available in this deployment (no source configured).',
    );
    expect(unavailableText('verification:pan')).toBe(
      'PAN searches are not available in this deployment (no source configured).',
    );
  });
});

describe('kindPrice', () => {
  it("reads a kind's price from the deployment's answer, and null while it is not known", () => {
    expect(kindPrice(sources, 'email')).toBe(2);
    expect(kindPrice(sources, 'tel')).toBe(1);
    expect(kindPrice(sources, 'upi')).toBeNull();
    expect(kindPrice(undefined, 'tel')).toBeNull();
  });
});
