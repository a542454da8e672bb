// @db both — callbacks and the line cap as transactions on the queue
/**
 * The Twilio provider against a small local fake of Twilio's REST API (node:http, started here):
 * the create-call request is form-encoded with basic auth to the account's Calls.json, carries
 * the scene's prologue and silent-inquiry settings as TwiML and a status callback URL; the fake
 * then posts correctly signed status callbacks, which end the attempts with the spec's result
 * codes and free the line for the next number (the concurrency cap); forged or unsigned
 * callbacks are refused and change nothing; redials and the finish follow the callbacks.
 */
import http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledClock } from '../../../server/jobs/clock.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { attempts, auditActions, makeNumber, makeScene, makeTask, targets, task, ticks } from './campaign-helpers.js';

const SID = `AC${randomBytes(16).toString('hex')}`;
const TOKEN = randomBytes(16).toString('hex');
const REFUSED = '+12125550999';

interface Created {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
  sid: string;
}

/** Twilio as far as this dialer uses it: create call, and signed status callbacks it posts. */
class FakeTwilio {
  readonly calls: Created[] = [];
  /** how each call stands when asked (GET …/Calls/{Sid}.json); unset: in progress */
  readonly standing = new Map<string, { status: string; duration?: string }>();
  /** the status requests received (GET …/Calls/{Sid}.json) */
  readonly asked: Array<{ path: string; authorization?: string }> = [];
  private server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      if (req.method === 'POST' && /^\/2010-04-01\/Accounts\/[^/]+\/Calls\.json$/.test(req.url ?? '')) {
        if (form.To === REFUSED) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: 21211, message: `The 'To' number ${form.To} is not a valid phone number.`, status: 400 }));
          return;
        }
        const sid = `CA${randomBytes(16).toString('hex')}`;
        this.calls.push({ method: req.method, path: req.url!, headers: req.headers, form, sid });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sid, status: 'queued', to: form.To, from: form.From, account_sid: SID }));
        return;
      }
      const fetched = /^\/2010-04-01\/Accounts\/[^/]+\/Calls\/([^/]+)\.json$/.exec(req.url ?? '');
      const call = fetched && req.method === 'GET' ? this.calls.find((c) => c.sid === fetched[1]) : undefined;
      if (call) {
        this.asked.push({ path: req.url!, authorization: req.headers.authorization });
        const st = this.standing.get(call.sid) ?? { status: 'in-progress' };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sid: call.sid, status: st.status, duration: st.duration ?? null, to: call.form.To, account_sid: SID }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 20404, message: 'not found', status: 404 }));
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  /** Twilio's signature: base64 HMAC-SHA1 (auth token) over the URL + each param name and value, sorted by name. */
  static sign(token: string, url: string, params: Record<string, string>): string {
    const data = url + Object.keys(params).sort().map((k) => k + params[k]).join('');
    return createHmac('sha1', token).update(data).digest('base64');
  }

  /** Posts the status callback of a call, signed (or as told: another token, a given signature, none). */
  async status(call: Created, status: string, extra: Record<string, string> = {}, opts: { token?: string; signature?: string | null; signedParams?: Record<string, string> } = {}) {
    const params = { AccountSid: SID, CallSid: call.sid, CallStatus: status, From: call.form.From, To: call.form.To, ApiVersion: '2010-04-01', Direction: 'outbound-api', ...extra };
    const url = call.form.StatusCallback;
    const signature = opts.signature !== undefined ? opts.signature : FakeTwilio.sign(opts.token ?? TOKEN, url, opts.signedParams ?? params);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature === null ? {} : { 'x-twilio-signature': signature }) },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
  }
}

const fake = new FakeTwilio();
const clock = new ControlledClock('2026-07-01T14:00:00Z'); // 10:00 in New York (EDT)
let s: TestServer;
let admin: ApiClient;
let numberId: number;

beforeAll(async () => {
  await fake.start();
  Object.assign(process.env, { TELEPHONY_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15005550006', TWILIO_BASE_URL: fake.url });
  s = await startServer({ clock });
  process.env.PUBLIC_URL = s.url; // where the fake posts the status callbacks
  admin = await s.login();
  numberId = await makeNumber(admin, '+1 415 555 0100', 'twilio', 'US');
});
afterAll(async () => {
  await s?.close();
  await fake.close();
});

const attemptOf = async (taskId: number, sid: string) => (await attempts(s, taskId)).find((a) => a.provider_call_id === sid)!;

describe('Twilio dialer', () => {
  it('is the active dialer, ready', async () => {
    expect(await admin.ok('GET', 'call-center/dialer')).toMatchObject({
      name: 'twilio',
      dry_run: false,
      ready: true,
      account: `…${SID.slice(-4)}`,
      base_url: fake.url,
      status_callback_url: `${s.url}/api/telephony/status`,
    });
  });

  it('places calls up to the cap, takes signed status callbacks only, redials and finishes', async () => {
    const sceneId = await makeScene(admin, { time_zone: 'America/New_York', redial_times: 1, redial_interval_minutes: 10, silent_seconds: 6, silent_times: 2 });
    await s.db.query(`UPDATE voice_scene SET prologue = 'Hello & welcome <from> the store' WHERE id = $1`, [sceneId]);
    const t = await makeTask(admin, {
      scene_id: sceneId,
      number_ids: [numberId],
      latest_call_time: '20:00',
      concurrency: 2,
      callees: '+1 212 555 0001, Ann\n+1 212 555 0002\n+1 212-555-0003',
    });
    await admin.ok('POST', 'call-center/task/start', { id: t.id });

    // two lines: two calls, and no third while both are open
    await until(async () => fake.calls.length, (n) => n === 2);
    await ticks(s, 2);
    expect(fake.calls).toHaveLength(2);
    const [c1, c2] = fake.calls;
    expect(c1.method).toBe('POST');
    expect(c1.path).toBe(`/2010-04-01/Accounts/${SID}/Calls.json`);
    expect(c1.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(c1.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(c1.form).toMatchObject({ To: '+12125550001', From: '+14155550100', StatusCallbackMethod: 'POST' });
    expect(c2.form.To).toBe('+12125550002');
    const open = await attempts(s, t.id);
    expect(open).toHaveLength(2);
    expect(open.every((a) => a.status === 'dialling' && a.result === null && a.dialer === 'twilio' && a.dry_run === false)).toBe(true);
    expect(c1.form.StatusCallback).toBe(`${s.url}/api/telephony/status?attempt=${(await attemptOf(t.id, c1.sid)).id}`);
    // the scene's prologue, asked again after 6 s of silence at most 2 more times, then hang up
    expect(c1.form.Twiml.match(/<Gather input="speech" timeout="6">/g)).toHaveLength(3);
    expect(c1.form.Twiml).toContain('<Say>Hello &amp; welcome &lt;from&gt; the store</Say>');
    expect(c1.form.Twiml).toMatch(/<Hangup\/><\/Response>$/);

    // forged, unsigned and tampered callbacks are refused and change nothing
    const forged = await fake.status(c1, 'completed', { CallDuration: '42' }, { token: 'not-the-token' });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe(40003);
    expect((await fake.status(c1, 'completed', {}, { signature: null })).body.code).toBe(40003);
    const tampered = await fake.status(c1, 'completed', { CallDuration: '42' }, { signedParams: { AccountSid: SID, CallSid: c1.sid, CallStatus: 'busy' } });
    expect(tampered.status).toBe(403);
    expect(await attemptOf(t.id, c1.sid)).toMatchObject({ status: 'dialling', result: null, duration_seconds: 0 });
    expect(fake.calls).toHaveLength(2);

    // a signed "completed": result 1 (success), the number is done, the line goes to the third number
    const ok = await fake.status(c1, 'completed', { CallDuration: '42' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ code: 10000, data: { final: true, result: 1, settled: true } });
    expect(await attemptOf(t.id, c1.sid)).toMatchObject({ status: 'ended', result: 1, duration_seconds: 42, outcome: 'connected / 已接通' });
    await until(async () => fake.calls.length, (n) => n === 3);
    expect(fake.calls[2].form.To).toBe('+12125550003');
    // the same callback again is taken and changes nothing
    expect((await fake.status(c1, 'completed', { CallDuration: '42' })).body.data.settled).toBe(false);

    // a progress status is noted; final ones map to the spec's codes: no-answer → 4 (timeout), busy → 2
    expect((await fake.status(c2, 'ringing')).body.data.final).toBe(false);
    expect((await attemptOf(t.id, c2.sid)).status).toBe('dialling');
    expect((await fake.status(c2, 'no-answer')).body.data.result).toBe(4);
    expect((await fake.status(fake.calls[2], 'busy')).body.data.result).toBe(2);
    const byPhone = Object.fromEntries((await targets(s, t.id)).map((g) => [g.phone, g]));
    expect(byPhone['+1 212 555 0001']).toMatchObject({ state: 'done', outcome: 'connected', result: 1, attempts: 1 });
    expect(byPhone['+1 212 555 0002']).toMatchObject({ state: 'waiting', result: 4, attempts: 1 });
    expect(byPhone['+1 212-555-0003']).toMatchObject({ state: 'waiting', result: 2, attempts: 1 });
    await ticks(s, 1);
    expect(fake.calls).toHaveLength(3); // redials wait for their interval

    clock.set('2026-07-01T14:11:00Z');
    await until(async () => fake.calls.length, (n) => n === 5);
    const [r2, r3] = fake.calls.slice(3);
    expect([r2.form.To, r3.form.To].sort()).toEqual(['+12125550002', '+12125550003']);
    await fake.status(r2, 'completed', { CallDuration: '7' });
    await fake.status(r3, 'failed');
    const done = await until(() => task(s, t.id), (x) => x.status === 'finished');
    expect(done.finished_at).toBeTruthy();
    const outcomes = (await targets(s, t.id)).map((g) => g.outcome).sort();
    expect(outcomes).toEqual(['connected', 'connected', 'exhausted']);
    expect(await auditActions(s, t.id)).toContain('auto_finish');
    const detail = await admin.ok('GET', 'call-center/task/detail', { id: t.id });
    expect(detail).toMatchObject({ callee_total: 3, callee_done: 3, callee_connected: 2, dialer: 'twilio' });
  });

  it('a call whose status callback is lost is asked of Twilio a minute later and ends with its real status', async () => {
    const sceneId = await makeScene(admin, { time_zone: 'America/New_York', redial_times: 0 });
    const t = await makeTask(admin, { scene_id: sceneId, number_ids: [numberId], latest_call_time: '20:00', concurrency: 1, callees: '+1 212 555 0301\n+1 212 555 0302' });
    const before = fake.calls.length;
    await admin.ok('POST', 'call-center/task/start', { id: t.id });
    await until(async () => fake.calls.length, (n) => n === before + 1);
    const lost = fake.calls[before];
    // the call ends at Twilio, but its status callback never arrives; while it is under a minute
    // old nobody asks (the callback usually comes first)
    fake.standing.set(lost.sid, { status: 'completed', duration: '13' });
    expect(fake.asked.filter((a) => a.path.includes(lost.sid))).toEqual([]);
    clock.advance(90_000);
    const ended = await until(() => attemptOf(t.id, lost.sid), (a) => a.status === 'ended', 20_000);
    expect(ended).toMatchObject({ result: 1, duration_seconds: 13, provider_status: 'completed' });
    expect(ended.outcome).toContain('asked of the provider');
    const ask = fake.asked.find((a) => a.path.includes(lost.sid))!;
    expect(ask.path).toBe(`/2010-04-01/Accounts/${SID}/Calls/${lost.sid}.json`);
    expect(ask.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    // the line is free again at once: the second number is called without waiting for the 4-hour cut-off
    await until(async () => fake.calls.length, (n) => n === before + 2);
    // a call still going on when asked stays open and is asked again later; its callback then ends it
    const second = fake.calls[before + 1];
    clock.advance(90_000);
    await until(async () => fake.asked.filter((a) => a.path.includes(second.sid)).length, (n) => n >= 1, 20_000);
    expect((await attemptOf(t.id, second.sid)).status).toBe('dialling');
    expect((await fake.status(second, 'busy')).body.data).toMatchObject({ final: true, settled: true });
    await until(() => task(s, t.id), (x) => x.status === 'finished');
  });

  it('records a call Twilio refuses as a failed attempt with its reason', async () => {
    const sceneId = await makeScene(admin, { time_zone: 'America/New_York', redial_times: 0 });
    const t = await makeTask(admin, { scene_id: sceneId, number_ids: [numberId], latest_call_time: '20:00', callees: REFUSED });
    await admin.ok('POST', 'call-center/task/start', { id: t.id });
    await until(() => task(s, t.id), (x) => x.status === 'finished');
    const [a] = await attempts(s, t.id);
    expect(a).toMatchObject({ status: 'ended', result: 2, dialer: 'twilio', dry_run: false });
    expect(a.outcome).toContain('Twilio refused the call');
    expect(a.outcome).toContain('21211');
  });

  it('refuses a callback that is not form-encoded, or for no attempt', async () => {
    const r = await fetch(`${s.url}/api/telephony/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: number }).code).toBe(40001);
    const url = `${s.url}/api/telephony/status?attempt=999999`;
    const params = { AccountSid: SID, CallSid: 'CA0', CallStatus: 'completed' };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': FakeTwilio.sign(TOKEN, url, params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: number }).code).toBe(40004);
  });
});
