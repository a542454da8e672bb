import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { OpenFormRequest } from '../../runtime/actions.js';
import { useRuntime } from '../../runtime/context.js';
import { resolvePath } from '../../runtime/expr/template.js';
import type { FormSchema, LoadedSchema } from '../../runtime/types.js';
import { toProblems } from '../../runtime/use-schema.js';
import { preloadSchemaWidgets } from '../preload.js';

// the dialog (antd Modal / Drawer and the form body) is loaded with the first form opened
const loadDialog = () => import('./FormDialog.js');
const FormDialog = lazy(() => loadDialog().then((m) => ({ default: m.FormDialog })));

export interface FormHostValue {
  openForm(req: OpenFormRequest): Promise<boolean>;
}

const FormHostContext = createContext<FormHostValue | null>(null);

export function useFormHost(): FormHostValue {
  const v = useContext(FormHostContext);
  if (!v) throw new Error('useFormHost outside <FormHost>');
  return v;
}

/** Fills a route pattern (`/role/edit/:id`) from params. */
export const fillRoute = (route: string, params: Record<string, unknown>) =>
  route.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, k: string) => encodeURIComponent(String(params[k] ?? '')));

interface Open {
  key: number;
  loaded: LoadedSchema<FormSchema>;
  req: OpenFormRequest;
  resolve(ok: boolean): void;
}

/** Opens forms for openForm actions: modal / drawer forms here, page forms by navigating. */
export function FormHost({ children }: { children: ReactNode }) {
  const { env, loader, registry } = useRuntime();
  const [open, setOpen] = useState<Open[]>([]);
  const seq = useRef(0);
  const openForm = useCallback(
    async (req: OpenFormRequest) => {
      let loaded: LoadedSchema;
      try {
        loaded = await loader.load(req.form);
        // the form's widgets and the dialog code arrive before it opens, so it draws in one go
        const inDialog = loaded.schema.kind === 'form' && loaded.schema.presentation !== 'page';
        await Promise.all([preloadSchemaWidgets(registry, loaded), inDialog && loadDialog()]);
      } catch (e) {
        const p = toProblems(req.form, e)[0];
        env.notify.error(`${p.id} ${p.pointer}: ${p.reason}`);
        return false;
      }
      const schema = loaded.schema;
      if (schema.kind !== 'form') {
        env.notify.error(`${req.form}: not a form`);
        return false;
      }
      if (schema.presentation === 'page') {
        const route = schema.modes[req.mode]?.route;
        if (route) env.navigate(resolvePath(fillRoute(route, req.params), {}));
        return false;
      }
      return new Promise<boolean>((resolve) => {
        const key = ++seq.current;
        setOpen((list) => [...list, { key, loaded: loaded as LoadedSchema<FormSchema>, req, resolve }]);
      });
    },
    [env, loader, registry],
  );
  const value = useMemo(() => ({ openForm }), [openForm]);
  return (
    <FormHostContext.Provider value={value}>
      {children}
      <Suspense fallback={null}>
        {open.map((o) => (
          <FormDialog
            key={o.key}
            loaded={o.loaded}
            req={o.req}
            onDone={(ok) => {
              o.resolve(ok);
              setTimeout(() => setOpen((list) => list.filter((x) => x.key !== o.key)), 300);
            }}
          />
        ))}
      </Suspense>
    </FormHostContext.Provider>
  );
}
