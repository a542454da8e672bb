/**
 * The route tree: /login without layout; every other path is the signed-in tree
 * (SignedInRoutes.tsx: the session check, the main layout, the manifest's pages), a chunk that
 * /login does not load.
 */
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Loading } from '../../screens/Loading.js';

const LoginPage = lazy(() => import('../../screens/Login.js'));
const SignedInRoutes = lazy(() => import('./SignedInRoutes.js'));

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading fullscreen />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<SignedInRoutes />} />
      </Routes>
    </Suspense>
  );
}
