import { createContext, useContext } from 'react';

/** What the dashboard searches by (spec §4 Search): held globally, settable from the sidebar. */
export type SearchType = 'email' | 'tel' | 'username';

export const DEFAULT_SEARCH_TYPE: SearchType = 'tel';

export interface SearchTypeContextValue {
  searchType: SearchType;
  setSearchType: (type: SearchType) => void;
}

export const SearchTypeContext = createContext<SearchTypeContextValue | null>(null);

export function useSearchType(): SearchTypeContextValue {
  const value = useContext(SearchTypeContext);
  if (!value) throw new Error('useSearchType must be used inside the provider in app/AppRoot.tsx');
  return value;
}
