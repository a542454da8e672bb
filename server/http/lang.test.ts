import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Code, CodeMessage } from '../../src/contract/codes.js';
import { ajvMessage, fieldErrors } from '../plugins/errors.js';
import { localizeEnvelope, pickLang, pickTitle } from './lang.js';

const req = (lang?: string) => ({ headers: lang ? { 'x-lang': lang } : {} }) as never;

describe('server messages in the caller’s language', () => {
  it('keeps the half of each "english / 中文" part, field prefixes included', () => {
    const msg = 'email: is required / 必填; name: must NOT have more than 50 characters / 最多 50 个字符';
    expect(pickLang(msg, 'en-US')).toBe('email: is required; name: must NOT have more than 50 characters');
    expect(pickLang(msg, 'zh-CN')).toBe('email: 必填；name: 最多 50 个字符');
    expect(pickLang('incorrect email or password / 邮箱或密码错误', 'zh-CN')).toBe('邮箱或密码错误');
    expect(pickLang('unsupported content type, send application/json / 不支持的内容类型，请发送 application/json', 'en-US')).toBe(
      'unsupported content type, send application/json',
    );
    // not bilingual, or no language asked for: unchanged
    expect(pickLang('a / b', 'zh-CN')).toBe('a / b');
    expect(pickLang('incorrect email or password / 邮箱或密码错误', null)).toBe('incorrect email or password / 邮箱或密码错误');
  });

  it('localizes msg and every field error of an envelope', () => {
    const data = { errors: [{ field: 'old_password', message: 'is incorrect / 原密码不正确' }] };
    const zh = localizeEnvelope(req('zh-CN'), 'old_password: is incorrect / 原密码不正确', data);
    expect(zh).toEqual({ msg: 'old_password: 原密码不正确', data: { errors: [{ field: 'old_password', message: '原密码不正确' }] } });
    const en = localizeEnvelope(req('en-US'), 'old_password: is incorrect / 原密码不正确', data);
    expect(en.data).toEqual({ errors: [{ field: 'old_password', message: 'is incorrect' }] });
    expect(localizeEnvelope(req(), 'x / 甲', data)).toEqual({ msg: 'x / 甲', data });
  });

  it('every field-error kind the validator produces has both languages', () => {
    const kinds = ['required', 'additionalProperties', 'type', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'enum', 'const', 'pattern', 'anyOf', 'oneOf', 'uniqueItems'];
    for (const keyword of kinds) {
      const m = ajvMessage({ keyword, message: 'must be something', params: { type: 'string', format: 'email', limit: 3, comparison: '>=' } });
      expect(m, keyword).toMatch(/^[^一-龥]+ \/ .*\p{Script=Han}/u);
      expect(pickLang(m, 'zh-CN'), keyword).toMatch(/\p{Script=Han}/u);
      expect(pickLang(m, 'en-US'), keyword).not.toMatch(/\p{Script=Han}/u);
    }
    expect(fieldErrors([{ instancePath: '', keyword: 'required', params: { missingProperty: 'email' } }])[0].message).toBe('is required / 必填');
  });

  it('every code has a message on the client in both locales', async () => {
    const zh = JSON.parse(readFileSync(path.resolve('src/locales/zh-CN/common.json'), 'utf8'));
    const en = JSON.parse(readFileSync(path.resolve('src/locales/en-US/common.json'), 'utf8'));
    for (const code of Object.values(Code)) {
      expect(CodeMessage[code], String(code)).toBeTruthy();
      expect(zh.codes?.[code], `zh-CN common.codes.${code}`).toBeTruthy();
      expect(en.codes?.[code], `en-US common.codes.${code}`).toBeTruthy();
    }
  });

  it('every refusal written in server code is bilingual (a new English-only message fails here)', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = path.join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) files.push(p);
      }
    };
    walk(path.resolve('server'));
    const offenders: string[] = [];
    // a literal message handed to invalid([{ message }]), conflict(), AppError(), notFound() ...
    const CALL = /(?:message:\s*|conflict\(|new AppError\(Code\.\w+,\s*)(['`])((?:(?!\1).)*)\1/g;
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      // an emulator of an outside service (a sandbox trainer, a shop platform) answers in that
      // service's protocol and language; it says so on its first line
      if (src.startsWith('// lang-check: emulated protocol')) continue;
      for (const m of src.matchAll(CALL)) {
        const text = m[2];
        if (!/[a-z]{3}/i.test(text) || text.includes(' / ') || /\p{Script=Han}/u.test(text)) continue;
        if (/^\$\{[^}]+\}$/.test(text)) continue; // a message built elsewhere
        offenders.push(`${path.relative(process.cwd(), f)}: ${text}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('pickTitle', () => {
  it('splits a job title whose English half quotes a Chinese name', () => {
    const t = 'Run test task #5 "花间旗舰店" / 运行测试任务 #5';
    expect(pickTitle(t, 'en-US')).toBe('Run test task #5 "花间旗舰店"');
    expect(pickTitle(t, 'zh-CN')).toBe('运行测试任务 #5');
    expect(pickTitle('Embed knowledge chunks (花间) / 知识向量化（花间）', 'zh-CN')).toBe('知识向量化（花间）');
    expect(pickTitle('Cancel: Run train task #2 "模型" / 取消：运行训练任务 #2', 'en-US')).toBe('Cancel: Run train task #2 "模型"');
    expect(pickTitle('Export a.csv / 导出 a.csv', null)).toBe('Export a.csv / 导出 a.csv');
  });
});
