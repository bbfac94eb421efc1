import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { AdminApiError } from '../api/admin-api.error';
import { onSignedOut } from '../api/admin-client';
import { currentSession, signOut } from '../api/session.api';
import { formatTime } from '../format/time.util';
import { ErrorBanner } from '../ui/error-banner';
import { SignInPage } from '../pages/sign-in.page';
import { NAVIGATION } from './navigation';

export const SESSION_QUERY = ['session'] as const;

/**
 * The frame of every page: the session check (sign-in when there is none), the navigation and sign-out.
 * Any 401 from the admin API ends the session here, whichever page met it.
 */
export function ConsoleLayout() {
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: SESSION_QUERY, queryFn: currentSession, staleTime: 60_000 });
  const [menuOpen, setMenuOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<unknown>();
  const location = useLocation();

  /** Drops every figure the page holds, then shows the sign-in form. */
  const forgetEverything = useCallback(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] });
    queryClient.setQueryData(SESSION_QUERY, null);
  }, [queryClient]);
  useEffect(() => onSignedOut(forgetEverything), [forgetEverything]);
  useEffect(() => setMenuOpen(false), [location.pathname]);

  if (session.isPending) return <p className="centered">Checking the session…</p>;
  if (session.isError) {
    return (
      <main className="centered">
        <ErrorBanner error={session.error} title="The gateway cannot be reached" />
      </main>
    );
  }
  if (session.data === null) return <SignInPage />;

  const leave = async () => {
    setSignOutError(undefined);
    try {
      await signOut();
    } catch (error) {
      // A session that had already ended is signed out all the same; anything else is said.
      if (!(error instanceof AdminApiError && error.status === 401)) {
        setSignOutError(error);
        return;
      }
    }
    forgetEverything();
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <span className="topbar__brand">Gateway console</span>
        <button
          type="button"
          className="button topbar__menu"
          aria-expanded={menuOpen}
          aria-controls="console-navigation"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <nav id="console-navigation" aria-label="Console" className={`nav${menuOpen ? ' nav--open' : ''}`}>
          {NAVIGATION.map(({ path, title }) => (
            <NavLink key={path} to={`/${path}`} className="nav__link">
              {title}
            </NavLink>
          ))}
        </nav>
        <span className="topbar__session small">Session until {formatTime(session.data.expiresAt)}</span>
        <button type="button" className="button topbar__signout" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <main className="content" id="content">
        <ErrorBanner error={signOutError} title="Sign-out failed" />
        <Outlet />
      </main>
    </div>
  );
}
