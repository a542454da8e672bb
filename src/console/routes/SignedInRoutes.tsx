/**
 * The signed-in route tree, a chunk of its own (/login does not load it): inside the main layout,
 * / → /home, /home, /no-permission, /change-password, /my-sessions, /my-info, every manifest page
 * (and alias), module roots and page folders → the module home / the folder's first page, 404.
 */
import { lazy, useMemo } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { UNAUTH_COMMON } from '../../contract/permission-manifest.js';
import { RequireSession } from '../session/RequireSession.js';
import { Guard, GuardedPage } from './Guarded.js';
import { useRoutes } from './pages.js';
import { rootRedirects, routablePaths } from '../../runtime/route-config.js';

// the main layout inside the console's query client (src/console/data-layer/DataLayout.tsx)
const MainLayout = lazy(() => import('../data-layer/DataLayout.js'));
const Home = lazy(() => import('../../screens/Home.js'));
const NotFound = lazy(() => import('../../screens/NotFound.js'));
const NoPermission = lazy(() => import('../../screens/NoPermission.js'));
const ChangePassword = lazy(() => import('../../screens/ChangePassword.js'));
const MySessions = lazy(() => import('../../screens/MySessions.js'));
const MyInfo = lazy(() => import('../../screens/MyInfo.js'));

/** /home: the common module, no permission key, no menu entry. */
export const HOME_ROUTE = { key: 'common_home', module: UNAUTH_COMMON, auth: false } as const;

export default function SignedInRoutes() {
  const routes = useRoutes();
  const paths = useMemo(() => routablePaths(routes), [routes]);
  const redirects = useMemo(() => rootRedirects(routes), [routes]);
  return (
    <Routes>
      <Route element={<RequireSession />}>
        <Route element={<MainLayout />}>
          <Route index element={<Navigate to="/home" replace />} />
          <Route
            path="/home"
            element={
              <Guard route={HOME_ROUTE} module={UNAUTH_COMMON}>
                <Home />
              </Guard>
            }
          />
          <Route path="/no-permission" element={<NoPermission />} />
          <Route path="/change-password" element={<ChangePassword />} />
          <Route path="/my-sessions" element={<MySessions />} />
          <Route path="/my-info" element={<MyInfo />} />
          {paths.map(({ path, entry }) => (
            <Route key={path} path={path} element={<GuardedPage entry={entry} />} />
          ))}
          {redirects.map(({ from, to }) => (
            <Route key={from} path={from} element={<Navigate to={to} replace />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
}
