/** Import and Import template of a session viewer (server/resources/shops/record-import.ts), with the shared report modal. */
import type { RuntimeEnv } from '../../runtime/env.js';
import type { ActionSpec } from '../../runtime/types.js';
import { ActionButtons } from '../../widgets/actions/ActionButtons.js';

/** `api`: the route base (`session`, `mail-session`); `ns`: the locale keys (`session.chat`); `permission`: the import key. */
export function importActions(api: string, ns: string, permission: string): ActionSpec[] {
  return [
    {
      key: 'import',
      type: 'upload',
      label: `${ns}.import`,
      tooltip: `${ns}.importTip`,
      api: `POST ${api}/import`,
      accept: '.csv,.xlsx',
      maxSize: 10 * 1024 * 1024,
      body: { shop_id: '{{ filters.shop_id }}' },
      successMessage: `${ns}.imported`,
      permission,
    },
    { key: 'importTemplate', type: 'download', label: `${ns}.template`, api: `GET ${api}/import-template`, permission },
  ];
}

export function ImportToolbar({ env, actions, shopId, reload }: { env: RuntimeEnv; actions: ActionSpec[]; shopId?: number; reload(): void }) {
  return <ActionButtons actions={actions} host={{ env, scope: { filters: { shop_id: shopId } }, refresh: reload, openForm: () => Promise.resolve(false) }} />;
}
