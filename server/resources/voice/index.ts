/** The intelligent_voice call center: resources and routes (docs/modules/voice.md). */
import type { ResourceDef } from '../engine/types.js';
import { configRoutes } from './config.js';
import { dialerRoute } from './dialer.js';
import { callLog } from './log.js';
import { callNumber } from './number.js';
import { voiceScene } from './scene.js';
import { voiceSound } from './sound.js';
import { callTask } from './task.js';

export const VOICE_RESOURCES: ResourceDef[] = [voiceSound, voiceScene, callNumber, callTask, callLog];
export const voiceRoutes = [...configRoutes, dialerRoute];
