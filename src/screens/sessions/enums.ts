/** The enums the session viewers draw with (the same files the schema pages use). */
import callResult from '../../../schemas/enums/call_result.json';
import mailDirection from '../../../schemas/enums/mail_direction_type.json';
import messageType from '../../../schemas/enums/message_type.json';
import type { EnumDef } from '../../contract/enums.js';

export const MESSAGE_TYPE = messageType as EnumDef;
export const MAIL_DIRECTION = mailDirection as EnumDef;
export const CALL_RESULT = callResult as EnumDef;

/** How a chat message is drawn: which side, and whether it is a bubble or a centred event line. */
export type BubbleKind = 'customer' | 'ai' | 'human' | 'event' | 'card';

/**
 * message_type → drawing (docs/modules/sessions.md): 1 customer question and 9 track-order click
 * come from the customer (left); 2 AI reply, 6 welcome, 10 question and reply, 12 / 13 email
 * collection from the AI (right); 4 human reply and 7 ticket reply from a person (right, other
 * colour); 3 order hint and 11 product push are cards; 5 enter chat, 8 end conversation and the
 * 14–17 (transfer to an agent, survey, rating, timeout) are centred event lines.
 */
export function bubbleKind(type: number): BubbleKind {
  if (type === 1 || type === 9) return 'customer';
  if (type === 2 || type === 6 || type === 10 || type === 12 || type === 13) return 'ai';
  if (type === 4 || type === 7) return 'human';
  if (type === 3 || type === 11) return 'card';
  return 'event';
}

/** Mail directions 1 (received) and 5 (subscription / other) come in; the others go out. */
export const isIncomingMail = (direction: number) => direction === 1 || direction === 5;
