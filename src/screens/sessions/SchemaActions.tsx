/**
 * Schema modals opened from the bespoke session screens: the chat detail modal's Train
 * (`intelligent_text.session.train`, filled with the session's last answered question) and the
 * chat list's Batch status (`intelligent_text.session.batch_status`, on the selected sessions).
 * A bespoke screen has no runtime provider or form host of its own: each button mounts them.
 */
import { useMemo } from 'react';
import type { RuntimeEnv } from '../../runtime/env.js';
import { useShell } from '../../runtime/shell.js';
import type { ActionSpec } from '../../runtime/types.js';
import { ActionButtons } from '../../widgets/actions/ActionButtons.js';
import { FormHost, useFormHost } from '../../widgets/form/FormHost.js';
import { RuntimeProvider } from '../../widgets/schema-page/RuntimeProvider.js';
import type { ChatMessage } from './api.js';
import { bubbleKind } from './enums.js';

const TRAIN: ActionSpec[] = [
  {
    key: 'train',
    type: 'openForm',
    label: 'session.train.button',
    form: 'intelligent_text.session.train',
    mode: 'add',
    params: { id: '{{ session.id }}' },
    record: '{{ draft }}',
    permission: 'intelligent_text.text.session.chat.train',
    refresh: false,
  },
];

const BATCH_STATUS: ActionSpec[] = [
  {
    key: 'batchStatus',
    type: 'openForm',
    label: 'session.batchStatus.button',
    form: 'intelligent_text.session.batch_status',
    mode: 'add',
    params: { ids: '{{ ids }}' },
    permission: 'intelligent_text.text.session.chat.batch_status',
    disabled: '{{ count === 0 }}',
  },
];

/** The last customer question answered by the AI or a person, and that answer (empty when none). */
export function trainDraft(messages: ChatMessage[]): { subject: string; question: string; answer: string } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const kind = bubbleKind(messages[i].msg_type);
    if (kind !== 'ai' && kind !== 'human') continue;
    for (let j = i - 1; j >= 0; j--) {
      if (bubbleKind(messages[j].msg_type) !== 'customer') continue;
      const question = messages[j].content;
      return { subject: question.slice(0, 100), question, answer: messages[i].content };
    }
  }
  return { subject: '', question: '', answer: '' };
}

interface ButtonsProps {
  env: RuntimeEnv;
  actions: ActionSpec[];
  scope: Record<string, unknown>;
  refresh(): void;
}

function Buttons({ env, actions, scope, refresh }: ButtonsProps) {
  const { openForm } = useFormHost();
  return <ActionButtons actions={actions} host={{ env, scope, refresh, openForm }} />;
}

function Hosted(props: Omit<ButtonsProps, 'env'>) {
  const shell = useShell();
  const user = shell.useState((s) => s.user);
  return (
    <RuntimeProvider env={shell.env} user={user}>
      <FormHost>
        <Buttons env={shell.env} {...props} />
      </FormHost>
    </RuntimeProvider>
  );
}

const noop = () => undefined;

export function TrainAction({ session }: { session: { id: number; messages: ChatMessage[] } }) {
  const scope = useMemo(() => ({ session: { id: session.id }, draft: trainDraft(session.messages) }), [session]);
  return <Hosted actions={TRAIN} scope={scope} refresh={noop} />;
}

/** `done` runs after a submitted batch (the list reloads, the selection clears). */
export function BatchStatusAction({ ids, done }: { ids: number[]; done(): void }) {
  const scope = useMemo(() => ({ ids, count: ids.length }), [ids]);
  return <Hosted actions={BATCH_STATUS} scope={scope} refresh={done} />;
}
