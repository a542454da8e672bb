/**
 * The Train button of the chat session detail modal: opens the schema modal
 * `intelligent_text.session.train` (schemas/forms/intelligent_text/session/train.json), filled
 * with the session's last answered customer question, inside the runtime provider and form host
 * a schema form needs (a bespoke screen has neither of its own).
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

function Buttons({ env, session }: { env: RuntimeEnv; session: { id: number; messages: ChatMessage[] } }) {
  const { openForm } = useFormHost();
  const scope = useMemo(() => ({ session: { id: session.id }, draft: trainDraft(session.messages) }), [session]);
  return <ActionButtons actions={TRAIN} host={{ env, scope, refresh: () => undefined, openForm }} />;
}

export function TrainAction({ session }: { session: { id: number; messages: ChatMessage[] } }) {
  const shell = useShell();
  const user = shell.useState((s) => s.user);
  return (
    <RuntimeProvider env={shell.env} user={user}>
      <FormHost>
        <Buttons env={shell.env} session={session} />
      </FormHost>
    </RuntimeProvider>
  );
}
