/** The lab and script-management resources (docs/modules/lab.md). */
import type { ResourceDef } from '../engine/types.js';
import { labRole, labRoleAllRoute, labUser } from './lab-account.js';
import { comment, conversation } from './lab-content.js';
import { labDataset, trainTask } from './lab-train.js';
import { trainEvent } from './trainer-routes.js';
import { exitCode, ratingDataset, textDataset } from './text-dataset.js';
import { assistantOptionsRoute, modelServerOptionsRoute, ratingTask, shopOptionsRoute, testTask } from './text-task.js';

// the pickers ride on their resources, so RESOURCES is the only list to join
testTask.actions = [...(testTask.actions ?? []), assistantOptionsRoute, modelServerOptionsRoute, shopOptionsRoute];
labRole.actions = [...(labRole.actions ?? []), labRoleAllRoute];

export const LAB_RESOURCES: ResourceDef[] = [
  exitCode, textDataset, ratingDataset, testTask, ratingTask, labDataset, trainTask, trainEvent, conversation, comment, labRole, labUser,
];
