/** Opens a form by id (as an openForm action would) inside a FormHost, for tests. */
import './dom-polyfills.js';
import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter } from 'react-router-dom';
import type { OpenFormRequest } from '../../runtime/actions.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import { createDefaultRegistry } from '../registry.js';
import { FormHost, useFormHost } from '../form/FormHost.js';
import { RuntimeProvider } from '../schema-page/SchemaPage.js';

function Opener({ req, onDone }: { req: OpenFormRequest; onDone?(ok: boolean): void }) {
  const { openForm } = useFormHost();
  useEffect(() => {
    void openForm(req).then((ok) => onDone?.(ok));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- opens the form once, on mount
  return null;
}

export function renderOpenForm(req: OpenFormRequest, env: RuntimeEnv, onDone?: (ok: boolean) => void) {
  return render(
    <MemoryRouter>
      <RuntimeProvider env={env} registry={createDefaultRegistry({ strict: true })} user={{ id: 1 }}>
        <FormHost>
          <Opener req={req} onDone={onDone} />
        </FormHost>
      </RuntimeProvider>
    </MemoryRouter>,
  );
}
