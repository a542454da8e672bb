import { enumFile } from '../enums.js';

/** Flattened permission keys of the call center (src/contract/permission-manifest.ts, module intelligent_voice). */
const V = 'intelligent_voice';
const CC = `${V}.admin.call_center`;

export const VK = {
  scene: `${CC}.scene`,
  sceneAdd: `${CC}.scene.add`,
  sceneEdit: `${CC}.scene.edit`,
  number: `${CC}.call_number`,
  task: `${CC}.call_task`,
  taskAdd: `${CC}.call_task.add`,
  taskEdit: `${CC}.call_task.edit`,
  log: `${CC}.log`,
  logDetail: `${CC}.log.detail`,
  voice: `${CC}.voice`,
  voiceAdd: `${CC}.voice.add`,
  voiceEdit: `${CC}.voice.edit`,
  ivr: `${CC}.ivr`,
  ivrEdit: `${CC}.ivr.edit`,
  fallback: `${V}.admin.config_center.fallback`,
} as const;

/** Voice providers (the scene's voice provider, a voice's provider) and telephony carriers of numbers. */
export const VOICE_PROVIDERS = ['azure', 'google', 'elevenlabs', 'aliyun'] as const;
export const NUMBER_PROVIDERS = ['twilio', 'vonage', 'telnyx', 'aliyun'] as const;
/** every call result (schemas/enums/call_result.json): the call log shows dry runs too */
export const CALL_RESULTS = enumFile('call_result').items.map((i) => Number(i.value));
export const PHONE_PATTERN = '^\\+?[0-9][0-9 -]{4,30}$';
export const HHMM_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
