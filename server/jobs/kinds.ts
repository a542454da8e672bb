/**
 * Every job kind and ticker the engine runs, in one list (explicit, no registration by
 * import side effect). A new kind: write it beside the resource it works for, add it here.
 */
import type { JobKind, Ticker } from './types.js';
import { noopKind } from './noop.js';
import { campaignTicker } from '../resources/voice/calls/campaign.js';
import { campaignKind } from '../resources/voice/calls/campaign-job.js';
import { docLearnKind } from '../resources/learning/learn-doc-job.js';
import { knowledgeSyncTicker } from '../ai/knowledge/index.js';
import { embedKind, knowledgeEmbedTicker } from '../ai/knowledge/embed.js';
import { taskRunKind } from '../resources/lab/run-job.js';
import { taskStartTicker } from '../resources/lab/run-ticker.js';
import { trainRunKind } from '../resources/lab/train-job.js';
import { reidentifyKind } from '../resources/learning/product-identify.js';
import { mineKind } from '../resources/learning/auto-learn.js';
import { autoLearnTicker } from '../resources/learning/auto-learn-schedule.js';
import { pushKind } from '../resources/notifications/push.js';
import { deliverKind, deliverTicker } from '../notify/deliver-job.js';
import { exportCleanupTicker, exportKind } from '../resources/learning/learn-export-job.js';
import { imageExtractKind } from '../resources/config/image-extract-job.js';
import { shopSyncKind } from '../resources/page-groups/index.js';
import { traceSweepTicker } from '../ai/trace.js';

export const jobKinds: JobKind[] = [noopKind, campaignKind, docLearnKind, taskRunKind, trainRunKind, reidentifyKind, mineKind, pushKind, deliverKind, exportKind, embedKind, imageExtractKind, shopSyncKind];

export const tickers: Ticker[] = [campaignTicker, knowledgeSyncTicker, knowledgeEmbedTicker, taskStartTicker, autoLearnTicker, exportCleanupTicker, deliverTicker, traceSweepTicker];
