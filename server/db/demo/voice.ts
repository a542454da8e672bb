import type { Db, Queryable } from '../db.js';
import { insertMany } from './insert.js';
import { localParts, zonedTime } from '../../resources/voice/task-status.js';
import { DEMO_NOW, Rng } from './random.js';

/**
 * Demo data of the call center (deterministic, idempotent: does nothing when voices exist):
 * a voice library, scenes, numbers, call tasks in every status and a few hundred call logs
 * with transcripts, plus the IVR menu and the voice fallback configuration.
 */
export async function seedVoiceDemo(db: Db): Promise<void> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT 1 FROM voice_sound LIMIT 1) x');
  if (r.rows[0].n > 0) return;
  const rng = new Rng(20261123);
  await db.tx(async (q) => {
    const sounds = await seedSounds(q);
    const scenes = await seedScenes(q, sounds);
    const numbers = await seedNumbers(q, scenes);
    const tasks = await seedTasks(q, rng, scenes, numbers);
    await seedLogs(q, rng, tasks);
    await seedConfigs(q);
  });
}

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86400000;

const SOUNDS: Array<[string, string, string]> = [
  ['azure', 'Xiaoxiao (zh-CN, female)', 'zh-CN-XiaoxiaoNeural'],
  ['azure', 'Yunxi (zh-CN, male)', 'zh-CN-YunxiNeural'],
  ['azure', 'Jenny (en-US, female)', 'en-US-JennyNeural'],
  ['azure', 'Guy (en-US, male)', 'en-US-GuyNeural'],
  ['google', 'Wavenet F (en-US)', 'en-US-Wavenet-F'],
  ['google', 'Neural2 C (en-GB)', 'en-GB-Neural2-C'],
  ['google', 'Wavenet A (ja-JP)', 'ja-JP-Wavenet-A'],
  ['elevenlabs', 'Rachel', '21m00Tcm4TlvDq8ikWAM'],
  ['elevenlabs', 'Adam', 'pNInz6obpgDQGcFmaJgB'],
  ['aliyun', 'Zhixiaobai (zh-CN)', 'zhixiaobai'],
  ['aliyun', 'Aixia (zh-CN)', 'aixia'],
  ['aliyun', 'Abby (en-US)', 'abby'],
];

async function seedSounds(q: Queryable): Promise<Array<{ id: number; provider: string }>> {
  const rows = SOUNDS.map(([provider, name, identifier], i) => [
    provider, name, `https://cdn.example.com/voices/${provider}/${identifier}.mp3`, identifier, iso(DEMO_NOW - (60 - i) * DAY),
  ]);
  const ids = await insertMany(q, 'voice_sound', ['provider', 'name', 'audio_url', 'identifier', 'created_at'], rows);
  return ids.map((id, i) => ({ id, provider: SOUNDS[i][0] }));
}

const SCENES: Array<{ name: string; tz: string; sound: number; prologue: string; prompt: string }> = [
  {
    name: 'Order delivery confirmation', tz: 'America/New_York', sound: 2,
    prologue: 'Hi, this is Nova Outdoor calling about your recent order. Do you have a minute?',
    prompt: 'You confirm the delivery address and time window of an order. Be brief and polite. If the customer wants to change the address, collect the new address and read it back.',
  },
  {
    name: 'Cart recovery (US)', tz: 'America/Los_Angeles', sound: 4,
    prologue: 'Hello! You left a few items in your cart at Lumen Home. Can I help you finish your order?',
    prompt: 'Remind the customer of the items left in the cart, answer questions about shipping and returns, and offer the 10% code WELCOME10 once. Never insist.',
  },
  {
    name: '售后回访', tz: 'Asia/Shanghai', sound: 0,
    prologue: '您好，这里是云栖家居客服，想占用您一分钟了解一下商品使用情况。',
    prompt: '你是售后回访专员。询问客户对商品和物流是否满意，记录问题；客户不满意时表示歉意并告知会有专人跟进。',
  },
  {
    name: '支付失败提醒', tz: 'Asia/Shanghai', sound: 9,
    prologue: '您好，您在本店的订单支付未成功，需要帮您重新发送支付链接吗？',
    prompt: '提醒客户订单支付失败，确认是否需要重新发送支付链接，不索取任何银行卡信息。',
  },
  {
    name: 'Appointment reminder (UK)', tz: 'Europe/London', sound: 5,
    prologue: 'Good morning, this is a reminder of your fitting appointment tomorrow.',
    prompt: 'Confirm or reschedule the appointment. Offer two alternative slots when the customer cannot make it.',
  },
  {
    name: 'COD order verification (JP)', tz: 'Asia/Tokyo', sound: 6,
    prologue: 'こんにちは、ご注文の確認のお電話です。',
    prompt: 'Verify cash-on-delivery orders: confirm the name, address and amount. Speak Japanese.',
  },
];

async function seedScenes(q: Queryable, sounds: Array<{ id: number; provider: string }>): Promise<Array<{ id: number; tz: string }>> {
  const rows = SCENES.map((s, i) => [
    s.name, s.prologue, s.prompt, [5, 6, 8, 5, 10, 6][i], [2, 2, 3, 1, 2, 2][i], [1, 2, 0, 2, 1, 3][i], [30, 60, 30, 120, 45, 20][i],
    s.tz, sounds[s.sound].provider, sounds[s.sound].id, iso(DEMO_NOW - (40 - i * 3) * DAY),
  ]);
  const ids = await insertMany(
    q,
    'voice_scene',
    ['name', 'prologue', 'prompt', 'silent_seconds', 'silent_times', 'redial_times', 'redial_interval_minutes', 'time_zone', 'voice_provider', 'sound_id', 'created_at'],
    rows,
  );
  return ids.map((id, i) => ({ id, tz: SCENES[i].tz }));
}

const NUMBERS: Array<[string, string, string, number, number | null]> = [
  ['+1 415 555 0101', 'twilio', 'US', 1, 0],
  ['+1 415 555 0102', 'twilio', 'US', 1, 1],
  ['+1 212 555 0147', 'telnyx', 'US', 1, 0],
  ['+1 646 555 0199', 'vonage', 'US', 0, null],
  ['+86 21 6088 1234', 'aliyun', 'CN', 1, 2],
  ['+86 21 6088 1235', 'aliyun', 'CN', 1, 3],
  ['+86 10 8456 7788', 'aliyun', 'CN', 0, null],
  ['+44 20 7946 0321', 'vonage', 'GB', 1, 4],
  ['+81 3 4520 8811', 'telnyx', 'JP', 1, 5],
  ['+1 310 555 0163', 'twilio', 'US', 1, 1],
];

async function seedNumbers(q: Queryable, scenes: Array<{ id: number }>): Promise<number[]> {
  const rows = NUMBERS.map(([phone, provider, cc, status, scene], i) => [phone, provider, cc, status, scene === null ? null : scenes[scene].id, iso(DEMO_NOW - (35 - i) * DAY)]);
  return insertMany(q, 'call_number', ['phone', 'provider', 'country_code', 'status', 'scene_id', 'created_at'], rows);
}

interface TaskSeed {
  name: string;
  scene: number;
  numbers: number[];
  mode: string;
  status: string;
  startDays: number;
  latest: string;
  pause?: 'manual' | 'overrun';
  calls: number;
}

const TASKS: TaskSeed[] = [
  { name: 'Black Friday delivery confirmations', scene: 0, numbers: [0, 2], mode: 'immediate', status: 'running', startDays: 2, latest: '20:00', calls: 90 },
  { name: 'Abandoned carts — week 44', scene: 1, numbers: [1, 9], mode: 'schedule', status: 'finished', startDays: 9, latest: '19:30', calls: 70 },
  { name: '11月售后回访', scene: 2, numbers: [4], mode: 'manual', status: 'pausing', startDays: 3, latest: '21:00', pause: 'overrun', calls: 60 },
  { name: '支付失败提醒（第一批）', scene: 3, numbers: [5], mode: 'immediate', status: 'stopped', startDays: 12, latest: '20:00', calls: 25 },
  { name: 'Fitting reminders — December', scene: 4, numbers: [7], mode: 'schedule', status: 'pending', startDays: -3, latest: '18:00', calls: 0 },
  { name: 'COD verification batch 7', scene: 5, numbers: [8], mode: 'manual', status: 'pausing', startDays: 1, latest: '20:00', pause: 'manual', calls: 30 },
  { name: 'Abandoned carts — week 45', scene: 1, numbers: [1], mode: 'manual', status: 'pending', startDays: 0, latest: '19:30', calls: 0 },
  { name: '双十一售后回访', scene: 2, numbers: [4, 5], mode: 'schedule', status: 'finished', startDays: 18, latest: '21:00', calls: 45 },
];

async function seedTasks(q: Queryable, _rng: Rng, scenes: Array<{ id: number }>, numbers: number[]): Promise<Array<{ id: number; seed: TaskSeed; numbers: string[] }>> {
  const rows = TASKS.map((t, i) => {
    const start = DEMO_NOW - t.startDays * DAY;
    return [
      t.name, scenes[t.scene].id, t.numbers.map((n) => numbers[n]), t.mode, t.status, t.mode === 'manual' && t.status === 'pending' ? null : iso(start), t.latest,
      t.pause ?? null, t.pause === 'overrun' ? iso(DEMO_NOW + DAY / 2) : null, iso(start - (i + 1) * 3600000),
    ];
  });
  const ids = await insertMany(q, 'call_task', ['name', 'scene_id', 'number_ids', 'mode', 'status', 'start_at', 'latest_call_time', 'pause_reason', 'resume_at', 'created_at'], rows);
  return ids.map((id, i) => ({ id, seed: TASKS[i], numbers: TASKS[i].numbers.map((n) => NUMBERS[n][0]) }));
}

const EN_NAMES = ['Emma Johnson', 'Liam Smith', 'Olivia Brown', 'Noah Davis', 'Ava Wilson', 'Mason Clark', 'Sophia Lewis', 'Lucas Walker', 'Mia Hall', 'Ethan Young'];
const ZH_NAMES = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊', '赵敏', '黄强', '周婷', '吴军'];
const JA_NAMES = ['佐藤 健', '鈴木 美咲', '高橋 大輔', '田中 由美'];

function transcript(rng: Rng, seed: TaskSeed, result: number, zh: boolean): Array<{ role: string; content: string; offset_ms: number }> {
  const scene = SCENES[seed.scene];
  const lines: Array<[string, string]> = [['ai', scene.prologue]];
  if (result === 4) {
    lines.push(['ai', zh ? '您好，请问能听到吗？' : 'Hello, can you hear me?']);
  } else if (result === 3) {
    lines.push(['customer', zh ? '别再打了，****！' : 'Stop calling me, ****!'], ['ai', zh ? '抱歉打扰您，祝您生活愉快，再见。' : 'Sorry for the trouble. Have a nice day, goodbye.']);
  } else if (result === 2) {
    lines.push(['customer', zh ? '我现在在开车，不方便。' : "I'm driving right now."], ['ai', zh ? '好的，稍后再联系您。' : "No problem, we'll call you back later."]);
  } else if (zh) {
    lines.push(['customer', rng.pick(['可以，你说吧。', '嗯，有什么事？'])], ['ai', '请问您对收到的商品满意吗？'], ['customer', rng.pick(['挺满意的，物流也快。', '还行，就是包装有点破。'])], ['ai', '感谢您的反馈，祝您生活愉快！']);
  } else {
    lines.push(['customer', rng.pick(['Sure, go ahead.', 'Yes, what is it about?'])], ['ai', 'Can you confirm the delivery address ends with "Main Street 12"?'], ['customer', rng.pick(['Yes, that is right.', 'Actually it is Main Street 21.'])], ['ai', 'Thank you, I have noted that. Have a great day!']);
  }
  let t = 0;
  return lines.map(([role, content]) => {
    const line = { role, content, offset_ms: t };
    t += 1500 + Math.floor(content.length * 90 * (0.8 + rng.next() * 0.4));
    return line;
  });
}

async function seedLogs(q: Queryable, rng: Rng, tasks: Array<{ id: number; seed: TaskSeed; numbers: string[] }>): Promise<void> {
  const rows: unknown[][] = [];
  for (const t of tasks) {
    const zh = /[\u4e00-\u9fa5]/.test(SCENES[t.seed.scene].prologue) && t.seed.scene !== 5;
    const names = t.seed.scene === 5 ? JA_NAMES : zh ? ZH_NAMES : EN_NAMES;
    const tz = SCENES[t.seed.scene].tz;
    for (let i = 0; i < t.seed.calls; i++) {
      const result = rng.weighted([[1, 68], [2, 18], [3, 4], [4, 10]] as const);
      const lines = transcript(rng, t.seed, result, zh);
      const duration = result === 4 ? rng.int(20, 35) : Math.max(8, Math.round(lines[lines.length - 1].offset_ms / 1000) + rng.int(2, 12));
      // a day of the task's run, at a local time between 09:00 and its latest call time
      const day = new Date(DEMO_NOW - t.seed.startDays * DAY + rng.int(0, Math.max(0, t.seed.startDays - 1)) * DAY);
      const local = localParts(day, tz);
      const lastHour = Number(t.seed.latest.slice(0, 2)) - 1;
      const at = zonedTime(local.year, local.month, local.day, rng.int(9, lastHour), rng.int(0, 59), tz).getTime() + rng.int(0, 59) * 1000;
      const callee = zh ? `+86 1${rng.int(30, 99)} ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}` : `+1 ${rng.int(201, 989)} 555 ${String(rng.int(100, 9999)).padStart(4, '0')}`;
      rows.push([
        t.id, rng.pick(t.numbers), callee, rng.pick(names), duration, result,
        result === 4 ? '' : `https://recordings.example.com/calls/${t.id}/${i + 1}.mp3`, JSON.stringify(lines), iso(at), iso(at + duration * 1000),
      ]);
    }
  }
  await insertMany(q, 'call_log', ['task_id', 'caller_number', 'callee_number', 'customer_name', 'duration_seconds', 'result', 'recording_url', 'transcript', 'called_at', 'created_at'], rows);
}

export const DEMO_IVR_MENU = {
  welcome: 'Welcome to Nova Outdoor. 欢迎致电 Nova Outdoor。',
  timeout_seconds: 8,
  children: [
    {
      key: '1', label: 'Orders / 订单', action: 'submenu', prompt: 'Press 1 to track an order, 2 to change an address.',
      children: [
        { key: '1', label: 'Track an order / 查询物流', action: 'ai' },
        { key: '2', label: 'Change address / 修改地址', action: 'transfer', target: '+1 415 555 0100' },
      ],
    },
    { key: '2', label: 'Returns / 退换货', action: 'ai' },
    { key: '3', label: 'Opening hours / 营业时间', action: 'play', prompt: 'We are open Monday to Friday, 9 am to 6 pm Pacific time.' },
    { key: '0', label: 'Human agent / 人工客服', action: 'transfer', target: '+1 415 555 0100' },
    { key: '#', label: 'Hang up / 挂断', action: 'hangup' },
  ],
};

async function seedConfigs(q: Queryable): Promise<void> {
  await q.query(
    `INSERT INTO voice_ivr_config (id, menu) VALUES (1, $1::jsonb) ON CONFLICT (id) DO UPDATE SET menu = EXCLUDED.menu`,
    [JSON.stringify(DEMO_IVR_MENU)],
  );
  await q.query(
    `UPDATE voice_fallback_config SET enabled = true, max_fail_times = 2, transfer_number = '+1 415 555 0100',
       fallback_reply = $1, hangup_message = $2 WHERE id = 1`,
    [
      "Sorry, I didn't quite get that. Let me connect you with a colleague. 抱歉，我没有听清，正在为您转接人工客服。",
      'Thank you for your time. Goodbye! 感谢您的接听，再见！',
    ],
  );
}
