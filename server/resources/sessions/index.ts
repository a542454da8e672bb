import type { RouteDef } from '../../http/route.js';
import type { ResourceDef } from '../engine/types.js';
import { CONFIG_RESOURCES } from '../config/config-center.js';
import { imageExtraction, storedFile } from '../config/ops-tools.js';
import { policyImportLog } from '../config/policy-import.js';
import { playgroundRoute, prompt } from '../config/prompt.js';
import { categoryGroup, categoryItem } from './categories.js';
import { feedback } from './feedback.js';
import { sessionMark } from './marks.js';
import { chatSession, mailSession, voiceSession } from './viewers.js';

/** The resources of the session, config-center, operations-tools and prompt areas (docs/modules/sessions.md). */
export const SESSION_RESOURCES: ResourceDef[] = [
  chatSession, mailSession, voiceSession, sessionMark, feedback, categoryGroup, categoryItem,
  ...CONFIG_RESOURCES, imageExtraction, storedFile, policyImportLog, prompt,
];

export const sessionRoutes: RouteDef[] = [playgroundRoute];
