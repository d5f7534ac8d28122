/**
 * Reading a verification-code SMS: which app sent it and the code in it. Real senders write codes in
 * many shapes ('<#> Your WhatsApp code: 123-456', 'G-123456 is your Google verification code',
 * '【腾讯科技】验证码：123456，5分钟内有效', '123 456 is your Instagram code', Steam's 5-character
 * codes); test/codes.test.ts holds the real-format samples this is held to. Hand-written: no npm
 * library covers Chinese senders and app detection (docs/decisions.md).
 */

/** Full-width digits, letters and punctuation (Chinese input methods) as ASCII. */
function normalize(text: string): string {
  return text
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ')
    .replace(/[\u200B-\u200D\uFEFF]/g, '');
}

/** A code: digits (possibly split in two groups by a space or a hyphen), or 4–8 letters and digits with at least one digit. */
const digitsToken = String.raw`\d{3}[ -]\d{3}|\d{4,8}`;
const alnumToken = String.raw`(?=[A-Z0-9]*\d)[A-Z0-9]{4,8}`;

const keyword = String.raw`(?:code|codigo|código|otp|pin|passcode|password|验证码|校验码|动态码|确认码|驗證碼|認證碼|验证代码|代码|安全码|security code|confirmation code|verification code|login code)`;

const patterns: RegExp[] = [
  // 'G-123456 is your Google …', 'FB-12345 is your Facebook …'
  new RegExp(String.raw`(?:^|[^A-Za-z0-9])[A-Z]{1,3}-(\d{4,8})(?![\d-])`),
  // 'code: 123-456', '验证码：123456', 'code is 482913', 'Code is: 7KBQ2', 'code 1234'
  new RegExp(
    String.raw`${keyword}[^A-Za-z0-9\n]{0,3}(?:(?:is|为|是|為)[^A-Za-z0-9\n]{0,3})?(${digitsToken}|${alnumToken})(?![A-Za-z0-9])`,
    'i',
  ),
  // '123456 is your …', '123 456 is your Instagram code', '4821为您的验证码'
  new RegExp(String.raw`(?:^|[^\d+])(${digitsToken})(?:\s*(?:is|are|为|是|為)\b|\s*(?:为|是|為))`, 'i'),
  // 'Use 1234567 as Microsoft account security code', 'Enter 123456 to …'
  new RegExp(String.raw`\b(?:use|enter|input|输入|請輸入|请输入)\s*:?\s*(${digitsToken})(?!\d)`, 'i'),
];

/** The first group of 4 to 8 digits that is not part of a phone number, a time or an amount. */
const fallback =
  /(?:^|[^\d+.:/$¥€£])(\d{4,8})(?![\d.:/%]|\s*(?:分钟|分鐘|minutes?|mins?|秒|seconds?|hours?|小时|元|USD|dollars?))/i;

/** The code in a verification SMS ('' when none is found); separators inside it are dropped. */
export function extractCode(text: string): string {
  const t = normalize(text);
  for (const p of patterns) {
    const m = p.exec(t);
    if (m?.[1]) return m[1].replace(/[ -]/g, '');
  }
  const m = fallback.exec(t);
  return m?.[1] ?? '';
}

/** Words that name an app in its SMS (sender names, brand names in English and Chinese). */
const appWords: [app: string, pattern: RegExp][] = [
  ['whatsapp', /whats\s?app/i],
  ['telegram', /telegram|电报/i],
  ['google', /google|谷歌|(?:^|[^A-Za-z])G-\d{4,8}/i],
  ['wechat', /wechat|weixin|微信|腾讯/i],
  ['facebook', /facebook|(?:^|[^A-Za-z])FB-\d|脸书/i],
  ['instagram', /instagram/i],
  ['tiktok', /tik\s?tok|抖音/i],
  ['openai', /openai|chatgpt/i],
  ['twitter', /twitter|推特|\bX verification\b|\bon X\b/i],
  ['microsoft', /microsoft|outlook|hotmail|微软/i],
  ['apple', /apple|icloud|苹果/i],
  ['amazon', /amazon|亚马逊/i],
  ['paypal', /paypal|贝宝/i],
  ['discord', /discord/i],
  ['signal', /\bsignal\b/i],
  ['snapchat', /snapchat/i],
  ['linkedin', /linkedin|领英/i],
  ['uber', /\buber\b|优步/i],
  ['airbnb', /airbnb|爱彼迎/i],
  ['tinder', /tinder/i],
  ['line', /\bLINE\b/],
  ['viber', /viber/i],
  ['kakaotalk', /kakao/i],
  ['steam', /steam/i],
  ['netflix', /netflix|奈飞/i],
  ['yahoo', /yahoo|雅虎/i],
  ['shopify', /shopify/i],
  ['ebay', /\bebay\b|易贝/i],
  ['alibaba', /alibaba|阿里巴巴|淘宝|支付宝|alipay/i],
];

/** The app an SMS is from, by its sender and text (null when none is named). */
export function detectApp(text: string, sender = ''): string | null {
  const t = normalize(`${sender} ${text}`);
  for (const [app, re] of appWords) if (re.test(t)) return app;
  return null;
}
