import { Navigate, Outlet, useLocation } from 'react-router';
import { type Session, useSession } from '../features/auth/session';
import { toViewer } from '../lib/authorities';
import { ProfileContext } from '../lib/profile-context';
import { clearSession } from '../lib/session';
import { FullPageLoader } from './full-page-loader';
import { ProfileFailed } from './profile-failed';
import { type AuthState, resolveRoute } from './routing-rules';

function toAuthState(session: Session): AuthState {
  if (session.status === 'ready') return { status: 'ready', viewer: toViewer(session.profile) };
  return { status: session.status };
}

/** The root route: applies the routing rules to every location before any page renders. */
export function RouteGuard() {
  const location = useLocation();
  const session = useSession();
  const decision = resolveRoute(location.pathname, toAuthState(session));

  switch (decision.kind) {
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'wait':
      return <FullPageLoader />;
    case 'failed':
      return (
        <ProfileFailed onRetry={session.status === 'failed' ? session.retry : () => {}} onSignOut={clearSession} />
      );
    case 'render':
      return (
        <ProfileContext value={session.status === 'ready' ? session.profile : null}>
          <Outlet />
        </ProfileContext>
      );
  }
}
