import { describe, expect, it } from 'vitest';
import { parseCallees } from './callees.js';
import { telephonyConfig } from './config.js';
import { callTwiml, e164, statusResult, twilioSignature, verifyTwilioSignature } from './twilio.js';

// the worked example of Twilio's "validating requests" documentation (two published versions)
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const params = (caller: string) => ({ CallSid: 'CA1234567890ABCDE', Caller: caller, Digits: '1234', From: caller, To: '+18005551212' });

describe('X-Twilio-Signature', () => {
  it("matches Twilio's documented examples", () => {
    expect(twilioSignature('12345', URL_, params('+12349013030'))).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(twilioSignature('12345', URL_, params('+14158675310'))).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });
  it('verifies only the right token, URL and parameters', () => {
    const p = params('+14158675310');
    expect(verifyTwilioSignature('12345', 'GvWf1cFY/Q7PnoempGyD5oXAezc=', URL_, p)).toBe(true);
    expect(verifyTwilioSignature('54321', 'GvWf1cFY/Q7PnoempGyD5oXAezc=', URL_, p)).toBe(false);
    expect(verifyTwilioSignature('12345', 'GvWf1cFY/Q7PnoempGyD5oXAezc=', `${URL_}&x=1`, p)).toBe(false);
    expect(verifyTwilioSignature('12345', 'GvWf1cFY/Q7PnoempGyD5oXAezc=', URL_, { ...p, Digits: '1235' })).toBe(false);
    expect(verifyTwilioSignature('12345', undefined, URL_, p)).toBe(false);
    expect(verifyTwilioSignature('12345', 'short', URL_, p)).toBe(false);
  });
});

describe('call status and TwiML', () => {
  it('maps final call statuses to the result codes 1–4', () => {
    expect(statusResult('completed')?.result).toBe(1);
    expect(statusResult('busy')?.result).toBe(2);
    expect(statusResult('failed')?.result).toBe(2);
    expect(statusResult('canceled')?.result).toBe(2);
    expect(statusResult('no-answer')?.result).toBe(4);
    expect(statusResult('ringing')).toBeNull();
    expect(statusResult('in-progress')).toBeNull();
  });
  it('asks again after each silence, at most silent_times times, escaping the text', () => {
    const x = callTwiml({ id: 1, prologue: 'Hi <you> & "me"', silentSeconds: 4, silentTimes: 0, voiceProvider: 'azure', voice: '', timeZone: 'UTC' });
    expect(x).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Gather input="speech" timeout="4"><Say>Hi &lt;you&gt; &amp; &quot;me&quot;</Say></Gather><Hangup/></Response>');
    expect(e164('+1 415-555 0100')).toBe('+14155550100');
  });
});

describe('numbers to call', () => {
  it('reads one number per line with an optional name', () => {
    expect(parseCallees('+1 415 555 0100, Ann Lee\n\n13800000001，王芳\n13800000002\t Bob ')).toEqual({
      callees: [
        { phone: '+1 415 555 0100', name: 'Ann Lee' },
        { phone: '13800000001', name: '王芳' },
        { phone: '13800000002', name: 'Bob' },
      ],
      problems: [],
    });
  });
  it('names the line of each problem', () => {
    const r = parseCallees('12345\nabc\n+1 415 555 0100\n+1-415-555-0100');
    expect(r.callees).toEqual([]);
    expect(r.problems).toEqual([
      'line 2: "abc" is not a phone number / 第 2 行不是电话号码',
      'line 4: +1-415-555-0100 is already on line 3 / 第 4 行号码与第 3 行重复',
    ]);
  });
});

describe('telephony settings', () => {
  it('defaults to the dry run and says what twilio lacks', () => {
    expect(telephonyConfig({})).toMatchObject({ provider: 'dry-run', problems: [], baseUrl: 'https://api.twilio.com' });
    expect(telephonyConfig({ TELEPHONY_PROVIDER: 'vonage' }).problems[0]).toContain('not known');
    const t = telephonyConfig({ TELEPHONY_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' });
    expect(t.provider).toBe('twilio');
    expect(t.problems.join('\n')).toContain('TWILIO_AUTH_TOKEN');
    expect(t.problems.join('\n')).toContain('PUBLIC_URL');
    expect(telephonyConfig({ TELEPHONY_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'x', PUBLIC_URL: 'https://console.example.com/' })).toMatchObject({
      problems: [],
      publicUrl: 'https://console.example.com',
    });
  });
});
