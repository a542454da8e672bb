/** Renders SchemaPage for a path inside a router, with a strict registry (unknown widgets throw). */
import './dom-polyfills.js';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { Registry } from '../../runtime/registry.js';
import { createDefaultRegistry } from '../registry.js';
import { RuntimeProvider, SchemaPage } from '../schema-page/SchemaPage.js';

function Routed() {
  const loc = useLocation();
  return <SchemaPage path={loc.pathname} params={{}} />;
}

export function renderSchemaPage(path: string, env: RuntimeEnv, registry: Registry = createDefaultRegistry({ strict: true })) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <RuntimeProvider env={env} registry={registry} user={{ id: 1, email: 'admin@example.com' }}>
        <Routes>
          <Route path="*" element={<Routed />} />
        </Routes>
      </RuntimeProvider>
    </MemoryRouter>,
  );
}
