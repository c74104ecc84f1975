import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEARCH_TYPE,
  SearchTypeContext,
  type SearchTypeContextValue,
  useSearchType,
} from '../src/lib/search-type.ts';

function Probe(): ReactNode {
  const { searchType } = useSearchType();
  return searchType;
}

describe('search type', () => {
  it('starts on phone search', () => {
    expect(DEFAULT_SEARCH_TYPE).toBe('tel');
  });

  it('is read from the provider of the app root', () => {
    const value: SearchTypeContextValue = { searchType: 'email', setSearchType: () => {} };
    const html = renderToStaticMarkup(
      createElement(SearchTypeContext.Provider, { value }, createElement(Probe)),
    );
    expect(html).toBe('email');
  });

  it('says where the provider is when a screen is drawn without it', () => {
    expect(() => renderToStaticMarkup(createElement(Probe))).toThrow(
      /inside the provider in app\/AppRoot.tsx/,
    );
  });
});
