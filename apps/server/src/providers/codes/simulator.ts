import { randomInt } from 'node:crypto';
import type { CodeSupplyPort } from './port';

type Template = (code: string) => { sender: string; text: string };
const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const split = (c: string) => `${c.slice(0, 3)}-${c.slice(3)}`;

/** The apps' real SMS formats (English, and Chinese where the app writes Chinese). */
const templates: Record<string, { en: Template; zh?: Template; len: number }> = {
  whatsapp: {
    len: 6,
    en: (c) => ({
      sender: 'WhatsApp',
      text: `<#> Your WhatsApp code: ${split(c)}\nDon't share this code with others\n4sgLq1p5sV6`,
    }),
    zh: (c) => ({
      sender: 'WhatsApp',
      text: `<#> 您的 WhatsApp 代码：${split(c)}\n请勿与他人分享此代码\n4sgLq1p5sV6`,
    }),
  },
  telegram: {
    len: 5,
    en: (c) => ({
      sender: 'Telegram',
      text: `Telegram code: ${c}\n\nYou can also tap on this link to log in:\nhttps://t.me/login/${c}`,
    }),
    zh: (c) => ({
      sender: 'Telegram',
      text: `Telegram 验证码：${c}\n\n您也可以点击此链接登录：\nhttps://t.me/login/${c}`,
    }),
  },
  google: {
    len: 6,
    en: (c) => ({ sender: 'Google', text: `G-${c} is your Google verification code.` }),
    zh: (c) => ({ sender: 'Google', text: `G-${c} 是您的 Google 验证码。` }),
  },
  wechat: {
    len: 6,
    en: (c) => ({
      sender: 'WeChat',
      text: `[WeChat] Your verification code is ${c}. Do not share it with others.`,
    }),
    zh: (c) => ({
      sender: '腾讯科技',
      text: `【腾讯科技】验证码：${c}，用于微信登录，5分钟内有效。如非本人操作，请忽略本短信。`,
    }),
  },
  facebook: { len: 8, en: (c) => ({ sender: 'Facebook', text: `${c} is your Facebook code` }) },
  instagram: {
    len: 6,
    en: (c) => ({
      sender: 'Instagram',
      text: `${c.slice(0, 3)} ${c.slice(3)} is your Instagram code. Don't share it.`,
    }),
  },
  tiktok: {
    len: 6,
    en: (c) => ({
      sender: 'TikTok',
      text: `[TikTok] ${c} is your verification code, valid for 5 minutes. To keep your account safe, never forward this code.`,
    }),
    zh: (c) => ({
      sender: '抖音',
      text: `【抖音】验证码${c}，用于手机登录，5分钟内有效。验证码提供给他人可能导致账号被盗，请勿泄露，谨防被骗。`,
    }),
  },
  openai: { len: 6, en: (c) => ({ sender: 'OpenAI', text: `Your OpenAI verification code is: ${c}` }) },
  twitter: { len: 6, en: (c) => ({ sender: 'X', text: `Your X verification code is ${c}.` }) },
  microsoft: {
    len: 7,
    en: (c) => ({ sender: 'Microsoft', text: `Use ${c} as Microsoft account security code` }),
  },
  apple: {
    len: 6,
    en: (c) => ({ sender: 'Apple', text: `Your Apple ID Code is: ${c}. Don't share it with anyone.` }),
    zh: (c) => ({ sender: 'Apple', text: `你的 Apple ID 验证码为：${c}。请勿与他人共享。` }),
  },
  amazon: {
    len: 6,
    en: (c) => ({ sender: 'Amazon', text: `${c} is your Amazon OTP. Do not share it with anyone.` }),
  },
  paypal: {
    len: 6,
    en: (c) => ({
      sender: 'PayPal',
      text: `PayPal: Your security code is: ${c}. Your code expires in 10 minutes. Please don't reply.`,
    }),
  },
  discord: { len: 6, en: (c) => ({ sender: 'Discord', text: `Your Discord verification code is: ${c}` }) },
  steam: {
    len: 5,
    en: () => {
      const alpha = 'BCDFGHJKMNPQRTVWXY23456789';
      let c = '';
      while (!/\d/.test(c)) c = Array.from({ length: 5 }, () => alpha[randomInt(alpha.length)]).join('');
      return { sender: 'Steam', text: `Your Steam verification code is: ${c}` };
    },
  },
  alibaba: {
    len: 6,
    en: (c) => ({
      sender: 'Alibaba',
      text: `[Alibaba] Your verification code is ${c}, valid for 15 minutes.`,
    }),
    zh: (c) => ({ sender: '阿里巴巴', text: `【阿里巴巴】您的验证码是${c}，15分钟内有效，请勿泄露。` }),
  },
};

/** An app's code SMS as the app writes it (a fresh random code). */
export function simulatedCodeSms(
  app: string,
  appName: string,
  lang: 'en' | 'zh',
): { sender: string; text: string } {
  const t = templates[app];
  if (t) return (lang === 'zh' && t.zh ? t.zh : t.en)(digits(t.len));
  const code = digits(6);
  return lang === 'zh'
    ? { sender: appName, text: `【${appName}】您的验证码是 ${code}，10分钟内有效。` }
    : { sender: appName, text: `Your ${appName} verification code is ${code}. It expires in 10 minutes.` };
}

export interface SimulatorOptions {
  /** After the lock, when the simulated app sends its code. */
  sendAfterMs: number;
  /** The share of locks whose app never sends (0 to 1), as real apps fail now and then. */
  failRate: number;
  /** App names, for the generic template. */
  appName?: (app: string) => string;
}

/** The built-in supplier: the platform pool and simulated apps (the default; no outside world). */
export class SimulatedCodeSupply implements CodeSupplyPort {
  readonly name = 'simulator';
  readonly handsOutNumbers = false;
  constructor(private readonly opts: SimulatorOptions) {}

  locked(p: { lockId: number; phone: string; app: string; country: string; lang: 'en' | 'zh' }) {
    const fails = this.opts.failRate > 0 && randomInt(1_000_000) < this.opts.failRate * 1_000_000;
    const name = this.opts.appName?.(p.app) ?? p.app;
    return Promise.resolve({
      ref: null,
      send: fails ? null : { afterMs: this.opts.sendAfterMs, ...simulatedCodeSms(p.app, name, p.lang) },
    });
  }

  finished() {
    return Promise.resolve();
  }
}
