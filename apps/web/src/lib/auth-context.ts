import type { TokenResponse, User } from '@footprint/domain';
import { createContext, useContext } from 'react';

/**
 * The signed-in user as every part of the app sees it. The provider lives in `app/AppRoot.tsx`; this
 * file only holds the contract so that features can read it without importing the app layer.
 */
export interface AuthContextValue {
  /** `null` when nobody is signed in (or before the first fetch has answered). */
  user: User | null;
  /** True until the first user fetch has settled. With no stored token it is false from the start. */
  loading: boolean;
  setUser: (user: User | null) => void;
  /** Shallow-merges a partial update (e.g. `{ credits }` from a search answer) into the user (spec §3). */
  mergeUser: (patch: Partial<User> & Record<string, unknown>) => void;
  /** Fetches the user again; resolves with it, or `null` when there is no valid session. */
  refetch: () => Promise<User | null>;
  /** Stores the token and its expiry, fetches the user and resolves with it. */
  login: (session: TokenResponse) => Promise<User>;
  /** Tells the server (ignoring failure), forgets token, expiry and user, and goes to `/`. */
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside the AuthProvider (app/AppRoot.tsx)');
  return value;
}
