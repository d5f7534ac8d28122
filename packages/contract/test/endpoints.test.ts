import { describe, expect, it } from 'vitest';
import {
  AddressBook,
  ContactPhone,
  constants,
  endpoints,
  jsonString,
  parseProductId,
  productId,
  type EndpointName,
} from '../src/index';
import { z } from 'zod';

interface Fixture {
  validInput: Record<string, unknown>;
  invalidInput: unknown;
  validOutput: unknown;
  invalidOutput: unknown;
}

// --- sample data ---
const captchaDrawing = {
  captchaId: 'abcdefgh',
  image: 'data:image/webp;base64,UklGRg==',
  width: 150,
  height: 50,
  pow: {
    parameters: {
      algorithm: 'SHA-256',
      nonce: 'ab',
      salt: 'cd',
      cost: 1,
      keyLength: 32,
      keyPrefix: '00',
      data: { cid: 'abcdefgh' },
    },
    signature: 'ef',
  },
};
const own = '14155550123';
const other = '14155550199';
const t0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const chatItem = {
  ownFullNumber: own,
  ownTelCode: '1',
  ownNumber: '4155550123',
  otherFullNumber: other,
  otherTelCode: '1',
  otherNumber: '4155550199',
  date: t0,
  text: 'Hello',
  media: '',
  type: 'sms',
  smsId: 'm-1',
  direction: 'in',
};
const message = {
  smsId: 'm-1',
  date: t0,
  type: 'voicemail',
  text: '',
  media: '/media/vm-1.mp3',
  direction: 'in',
  status: 0,
  highlightTarget: 'profile',
  highlightText: 'update your profile',
  stt: 'Call me back',
  getStt: true,
  sttStatus: 2,
};
const addressBook = {
  name: 'Ann',
  phoneList: [{ phone: '+14155550123', telCode: '1', tag: 'Mobile' }],
  email: 'ann@example.com',
};
/** A scheduled message (issue 22 §2). */
const scheduledItem = {
  id: '7',
  fromNumber: '14155550101',
  toNumber: '14155550102',
  text: 'See you at 6',
  sendAt: 1_780_000_000_000,
  status: 'waiting',
  version: 1,
  retmsg: '',
};

const bannerAds = {
  bannerAdsRedirectUrl: 'https://example.com/promo',
  bannerAdsPictureUrl: 'https://example.com/promo.png',
  bannerAdsRedirectUrlCn: '',
  bannerAdsPictureUrlCn: '',
};
const codeSent = { verifyid: 'v1234567', codeLength: 4, resendAfter: 60, expiresIn: 600 };
const address = { telCode: '1', phone: '4155550123', email: 'ann@example.com' };
const billing = {
  firstName: 'Ann',
  lastName: 'Lee',
  address: '1 Main St',
  city: 'Austin',
  province: 'TX',
  postalCode: '73301',
  country: 'United States',
  regionCode: 'US',
};
const kyc = { status: -1, idCardUrl1: '', idCardUrl2: '', idHoldUrl1: '', idHoldUrl2: '' };
const flags = Object.fromEntries(constants.paymentMethods.map((m) => [m, m !== 'unionpay']));
const plan = {
  planId: 1,
  planName: 'Unlimited',
  planRent: 11.07,
  planRentPeriod: 'quarter',
  chargeType: 1,
  monthRent: 3.69,
  activationFee: 0,
  discount: 0.1,
  tip: '',
  nextPaymentDate: '2026-04-15',
  planDescList: [{ title: 'Includes', items: ['Unlimited texts'] }],
  urlDict: { terms: 'https://www.numa.app/terms' },
};
const subResult = { historyId: 'h1', date: t0, subHint: 'Your number is ready.' };
const app = { app: 'whatsapp', name: 'WhatsApp', sort: 1 };
const phoneOption = { phone: own, subStatus: 0, telCode: '1', tip: '', canGetNumber: true, numberType: 1 };
const lockedPhone = {
  phone: own,
  formatPhone: '+1 (415) 555-0123',
  app: 'whatsapp',
  telCode: '1',
  telCodeList: ['1'],
  tip: '',
  subTip: '',
  subRent: 5,
  codeRate: 0.1,
  canSub: 1,
  subStatus: 0,
  canSendCodeSms: true,
  expireTime: t0 + constants.codes.lockMs,
};
const smsItem = { text: 'Your code is 123456', date: t0, charge: 0.1, smsId: 's-1', code: '123456' };
const verificationNumber = {
  phone: own,
  oldPhone: '4155550123',
  app: 'whatsapp',
  name: 'WhatsApp',
  code: 'US',
  subStatus: 1,
  nextPaymentDate: '2026-02-15',
  monthRent: 5,
  subRent: 5,
  codeRate: 0.1,
};

/** Every endpoint: a valid and an invalid input, a valid and an invalid output (`data`). */
const fixtures: Record<EndpointName, Fixture> = {
  // --- auth ---
  preLogin: {
    validInput: { email: 'ann@example.com', captchaId: 'abcdefgh12', inputCaptcha: 'x7k2' },
    invalidInput: { email: 'ann@example.com', telCode: '1', phone: '4155550123' },
    validOutput: { codeLength: 6, resendAfter: 60, expiresIn: 600 },
    invalidOutput: { codeLength: 5, resendAfter: 60, expiresIn: 600 },
  },
  login: {
    validInput: { telCode: '1', phone: '4155550123', code: '1234' },
    invalidInput: { email: 'ann@example.com', code: '12' },
    validOutput: { token: 'tok', canInvite: true, canSetInviter: false },
    invalidOutput: { token: 1, canInvite: true, canSetInviter: false },
  },
  refreshToken: {
    validInput: {},
    invalidInput: { token: 'x' },
    validOutput: { token: 'tok' },
    invalidOutput: {},
  },
  logout: { validInput: {}, invalidInput: { all: true }, validOutput: {}, invalidOutput: { ok: true } },
  captcha: {
    validInput: { captchaId: 'abcdefgh' },
    invalidInput: { captchaId: 'a' },
    validOutput: captchaDrawing,
    invalidOutput: { captchaId: 'abcdefgh', svg: '<svg/>' },
  },
  genCaptcha: {
    validInput: { captchaId: 'abcdefgh' },
    invalidInput: {},
    validOutput: captchaDrawing,
    invalidOutput: { ...captchaDrawing, image: 'data:image/svg+xml;base64,PHN2Zz4=' },
  },
  confirmCaptcha: {
    validInput: {
      captchaId: 'abcdefgh',
      inputCaptcha: 'x7k2',
      nextApi: '/web/getVerifyCode',
      telcode: '1',
      phone: '4155550123',
    },
    invalidInput: { captchaId: 'abcdefgh', inputCaptcha: 'x7k2', nextApi: '/web/login' },
    validOutput: { verifyid: 'v1234567' },
    invalidOutput: { verifyid: 5 },
  },
  getAccountInfo: {
    validInput: {},
    invalidInput: { id: 1 },
    validOutput: { ...address, status: 1, canInvite: true, canSetInviter: true },
    invalidOutput: { ...address, canInvite: true, canSetInviter: true },
  },
  queryBalance: {
    validInput: {},
    invalidInput: { x: 1 },
    validOutput: { balance: 1.5 },
    invalidOutput: { balance: '1.5' },
  },

  // --- chats ---
  getVirtualPhoneList: {
    validInput: {},
    invalidInput: { all: '1' },
    validOutput: {
      virtualPhones: [
        {
          telCode: '1',
          phone: '4155550123',
          paymentDate: '2026-02-01',
          monthRent: 4.09,
          planId: 3,
          autoRenew: true,
        },
      ],
      canForward: true,
      canVoicemail: true,
      forwardStatus: 1,
      voicemailStatus: 0,
    },
    invalidOutput: {
      virtualPhones: [],
      canForward: true,
      canVoicemail: true,
      forwardStatus: 2,
      voicemailStatus: 0,
    },
  },
  getChatList: {
    validInput: { months: '4' },
    invalidInput: { months: '5' },
    validOutput: { chatList: [chatItem], serverTime: t0 },
    invalidOutput: { chatList: [{ ...chatItem, type: 'fax' }], serverTime: t0 },
  },
  getChatListByDate: {
    validInput: { since: String(t0) },
    invalidInput: { since: 'yesterday' },
    validOutput: { chatList: [], serverTime: t0 },
    invalidOutput: { chatList: [{ ...chatItem, direction: 'up' }], serverTime: t0 },
  },
  getDialogList: {
    validInput: {
      ownFullNumber: own,
      otherFullNumber: other,
      pageSize: '500',
      ym: '2026-01',
      startTime: String(t0),
    },
    invalidInput: { ownFullNumber: own, otherFullNumber: other, pageSize: '501' },
    validOutput: { dialogList: [message], nextStartTime: null },
    invalidOutput: { dialogList: [{ ...message, status: 3 }], nextStartTime: null },
  },
  delSms: {
    validInput: { sms: JSON.stringify([{ smsId: 'm-1', date: t0 }]) },
    invalidInput: { sms: 'not json' },
    validOutput: { deleted: 1 },
    invalidOutput: { deleted: -1 },
  },
  speechToText: {
    validInput: { media: '/media/vm-1.mp3', language: 'en-US', smsId: 'm-1' },
    invalidInput: { media: 'ftp://example.com/a.mp3' },
    validOutput: { text: 'Call me back' },
    invalidOutput: { text: null },
  },
  searchMessages: {
    validInput: { q: ' 验证码 ', cursor: 'eyJkIjoxfQ' },
    invalidInput: { q: '   ' },
    validOutput: {
      results: [
        {
          smsId: 'in:abc',
          date: t0,
          ownFullNumber: own,
          otherFullNumber: other,
          direction: 'in',
          type: 'sms',
          snippet: '您的验证码是 1234',
          marks: [[2, 5]],
        },
      ],
      nextCursor: null,
    },
    invalidOutput: { results: [{ smsId: 'x', snippet: 'a' }], nextCursor: null },
  },
  getTemplates: {
    validInput: {},
    invalidInput: { id: '1' },
    validOutput: { templates: [{ id: '1', name: 'Hours', text: 'We open at 9.' }], max: 50 },
    invalidOutput: { templates: [{ id: 1, name: 'Hours', text: 'x' }], max: 50 },
  },
  saveTemplate: {
    validInput: { name: ' Hours ', text: 'We open at 9.' },
    invalidInput: { name: '', text: 'x' },
    validOutput: { template: { id: '7', name: 'Hours', text: 'We open at 9.' } },
    invalidOutput: { template: { name: 'Hours' } },
  },
  delTemplate: {
    validInput: { id: '7' },
    invalidInput: { id: 'abc' },
    validOutput: { deleted: true },
    invalidOutput: { deleted: 'yes' },
  },
  scheduleMessage: {
    validInput: {
      fromNumber: '14155550101',
      toNumber: '14155550102',
      text: ' See you at 6 ',
      sendAt: 1_780_000_000_000,
    },
    invalidInput: { fromNumber: '14155550101', toNumber: '14155550102', text: '', sendAt: 1_780_000_000_000 },
    validOutput: { scheduled: scheduledItem },
    invalidOutput: { scheduled: { ...scheduledItem, status: 'queued' } },
  },
  getScheduledMessages: {
    validInput: { fromNumber: '14155550101', toNumber: '14155550102' },
    invalidInput: { fromNumber: '+1 415', toNumber: '14155550102' },
    validOutput: {
      scheduled: [
        scheduledItem,
        { ...scheduledItem, status: 'failed', retcode: 400001, retmsg: 'Balance too low' },
      ],
    },
    invalidOutput: { scheduled: [{ ...scheduledItem, sendAt: 'tomorrow' }] },
  },
  editScheduledMessage: {
    validInput: { id: '7', version: 1, text: 'See you at 7', sendAt: 1_780_000_000_000 },
    invalidInput: { id: '7', version: 0, text: 'x', sendAt: 1_780_000_000_000 },
    validOutput: { scheduled: { ...scheduledItem, version: 2 } },
    invalidOutput: { scheduled: { ...scheduledItem, version: 0 } },
  },
  cancelScheduledMessage: {
    validInput: { id: '7' },
    invalidInput: { id: 'seven' },
    validOutput: { scheduled: { ...scheduledItem, status: 'cancelled' } },
    invalidOutput: { scheduled: { ...scheduledItem, id: 7 } },
  },
  getAdConfig: {
    validInput: {},
    invalidInput: { lang: 'en' },
    validOutput: bannerAds,
    invalidOutput: { bannerAdsRedirectUrl: '' },
  },

  // --- contacts ---
  getCloudAddressBook: {
    validInput: { pageSize: '500', since: '0' },
    invalidInput: { pageSize: '0' },
    validOutput: {
      addressBookList: [
        { id: 'c1', addressBook: JSON.stringify(addressBook), date: t0, localId: '', accountId: 'a1' },
      ],
      nextStartTime: null,
    },
    invalidOutput: {
      addressBookList: [{ id: 'c1', addressBook: '{bad', date: t0, localId: '', accountId: 'a1' }],
      nextStartTime: null,
    },
  },
  createOrUpdateCloudAddressBook: {
    validInput: { id: 'c1', addressBook: JSON.stringify(addressBook) },
    invalidInput: { addressBook: JSON.stringify({ ...addressBook, name: 'A'.repeat(20) }) },
    validOutput: { id: 'c1', date: t0 },
    invalidOutput: { id: '', date: t0 },
  },
  delCloudAddressBook: {
    validInput: { ids: 'c1,c2' },
    invalidInput: { ids: '' },
    validOutput: { deleted: 2 },
    invalidOutput: {},
  },

  // --- verify ---
  getVerifyCode: {
    validInput: { telcode: '1', phone: '4155550123' },
    invalidInput: { telcode: '12345', phone: '4155550123' },
    validOutput: codeSent,
    invalidOutput: { ...codeSent, verifyid: undefined },
  },
  requestToVerifyEmail: {
    validInput: { email: 'Ann@Example.com' },
    invalidInput: { email: 'nope' },
    validOutput: { ...codeSent, codeLength: 6 },
    invalidOutput: { ...codeSent, codeLength: 5 },
  },
  validateCode: {
    validInput: { verifyid: 'v1234567', activationcode: '1234' },
    invalidInput: { verifyid: 'v1234567', activationcode: '123456' },
    validOutput: {},
    invalidOutput: { ok: true },
  },
  validateCodeForEmail: {
    validInput: { verifyid: 'v1234567', activationcode: '123456' },
    invalidInput: { verifyid: 'v1234567', activationcode: '1234' },
    validOutput: {},
    invalidOutput: { ok: true },
  },
  setPhoneForAccount: {
    validInput: { telcode: '1', phone: '4155550123', verifyid: 'v1234567' },
    invalidInput: { telcode: '1', phone: '4155550123' },
    validOutput: address,
    invalidOutput: { ...address, telCode: 1 },
  },
  updatePhone: {
    validInput: { telcode: '44', phone: '7700900123', verifyid: 'v1234567' },
    invalidInput: { telcode: '+44', phone: '7700900123', verifyid: 'v1234567' },
    validOutput: address,
    invalidOutput: { phone: '4155550123' },
  },
  setEmailForAccount: {
    validInput: { email: 'ann@example.com', verifyid: 'v1234567' },
    invalidInput: { email: 'ann@example.com', verifyid: 'short' },
    validOutput: address,
    invalidOutput: { ...address, email: null },
  },
  updateEmail: {
    validInput: { email: 'ann@example.com', verifyid: 'v1234567' },
    invalidInput: { email: 'ann@', verifyid: 'v1234567' },
    validOutput: address,
    invalidOutput: {},
  },

  // --- profile ---
  getProfile: {
    validInput: {},
    invalidInput: { full: 1 },
    validOutput: {
      ...billing,
      profileStatus: -1,
      profileStatus4Phone: 0,
      needSetPhone: true,
      vipStatus: 0,
      expireDate: null,
    },
    invalidOutput: {
      ...billing,
      profileStatus: 3,
      profileStatus4Phone: 0,
      needSetPhone: true,
      vipStatus: 0,
      expireDate: null,
    },
  },
  updateProfile: {
    validInput: billing,
    invalidInput: { ...billing, city: 'C'.repeat(21) },
    validOutput: { profileStatus: 1 },
    invalidOutput: { profileStatus: -1 },
  },
  getKYCInfo: {
    validInput: {},
    invalidInput: { x: 1 },
    validOutput: kyc,
    invalidOutput: { ...kyc, status: 3 },
  },
  updateKYCInfo: {
    validInput: { idCardUrl1: '/media/kyc/front.jpg', idCardUrl2: '' },
    invalidInput: { idCardUrl1: 'javascript:alert(1)' },
    validOutput: { ...kyc, status: 1, idCardUrl1: '/media/kyc/front.jpg' },
    invalidOutput: { ...kyc, idCardUrl1: undefined },
  },

  // --- payments ---
  paySubmit: {
    validInput: {
      payment_method: 'creditCard',
      productid: 'card_web_usd_10',
      return_url: 'https://numa.localhost/',
    },
    invalidInput: { payment_method: 'creditCard', productid: 'card_web_usd_CUSTOM' },
    validOutput: { orderId: 'o1', paymentUrl: 'https://pay.example.com/o1' },
    invalidOutput: { orderId: 'o1' },
  },
  alipayPaySubmit: {
    validInput: { productid: 'alipay_web_usd_CUSTOM', custom_amount: 15 },
    invalidInput: { productid: 'alipay_web_eur_10' },
    validOutput: { orderId: 'o2', paymentUrl: 'https://pay.example.com/o2' },
    invalidOutput: { orderId: 'o2', paymentUrl: '' },
  },
  cryptoCurrencyPaySubmit: {
    validInput: { productid: 'cryptopay_web_usd_20', devicetype: 'web' },
    invalidInput: { productid: 'cryptopay_web_usd_20', custom_amount: 20 },
    validOutput: { orderId: 'o3', paymentUrl: 'https://pay.example.com/o3' },
    invalidOutput: { paymentUrl: 'https://pay.example.com/o3' },
  },
  paypalPaySubmit: {
    validInput: { productid: 'paypal_web_usd_20' },
    invalidInput: { productid: 'paypal_web_usd_CUSTOM' },
    validOutput: {
      orderId: 'o4',
      transactionId: '5O190127TN364715T',
      paymentUrl: 'https://www.paypal.com/checkoutnow?token=5O190127TN364715T',
    },
    invalidOutput: { orderId: 'o4', transactionId: '5O190127TN364715T', paymentUrl: '' },
  },
  etherPayPaySubmit: {
    validInput: { productid: 'crypto_web_usd_50', currency: 'USDC', network: 'Polygon' },
    invalidInput: { productid: 'crypto_web_usd_50', currency: 'USDC', network: 'TRC-20' },
    validOutput: {
      orderId: 'o5',
      currency: 'USDC',
      network: 'Polygon',
      rechargeAmount: '50.00012345',
      walletAddress: '0xabc',
      cryptoToLegalRate: '0.9998',
      queryRateTime: t0,
    },
    invalidOutput: {
      orderId: 'o5',
      currency: 'USDC',
      network: 'Polygon',
      rechargeAmount: 50,
      walletAddress: '0xabc',
      cryptoToLegalRate: '0.9998',
      queryRateTime: t0,
    },
  },
  getPaymentMethods: {
    validInput: {},
    invalidInput: { brand: 'numa' },
    validOutput: { ...flags, needSetPhone: { ...flags, paypal: true } },
    invalidOutput: flags,
  },
  cancelPayment: {
    validInput: { orderId: 'o1' },
    invalidInput: { orderId: '' },
    validOutput: { orderId: 'o1', status: 'cancelled' },
    invalidOutput: { orderId: 'o1', status: 'gone' },
  },
  queryPaymentStatus: {
    validInput: { orderId: 'o1' },
    invalidInput: {},
    validOutput: { orderId: 'o1', status: 'paid', amount: 10, gift: 1, balance: 11 },
    invalidOutput: { orderId: 'o1', status: 'paid', amount: 10, gift: 1 },
  },

  // --- history ---
  getPaymentList: {
    validInput: { date: '2026-01' },
    invalidInput: { date: '2026-13' },
    validOutput: {
      totalRows: 1,
      paymentList: [{ _id: 'p1', method: 'wechatpay', amount: 10, gifts: 1, date: t0 }],
    },
    invalidOutput: {
      totalRows: 1,
      paymentList: [{ _id: 'p1', method: 'cash', amount: 10, gifts: 1, date: t0 }],
    },
  },
  getBillList: {
    validInput: { ym: '2026-01', nextPage: 'cursor-2' },
    invalidInput: { ym: '2026-01', pageSize: '201' },
    validOutput: {
      list: [
        {
          _id: 'b1',
          type: 2,
          charge: -0.008,
          beforeBalance: 1,
          afterBalance: 0.992,
          date: t0,
          options: {
            direction: 'out',
            from: own,
            to: other,
            type: 'sms',
            count: 1,
            successCount: 1,
            countryCode: '1',
          },
        },
      ],
      nextPage: null,
    },
    invalidOutput: {
      list: [{ _id: 'b1', type: 99, charge: 0, beforeBalance: 1, afterBalance: 1, date: t0, options: {} }],
      nextPage: null,
    },
  },
  getNormalSmsList: {
    validInput: { date: '2026-01', pageNo: '2' },
    invalidInput: { date: '2026-01', pageNo: '0' },
    validOutput: {
      totalRows: 1,
      smsList: [
        {
          _id: 's1',
          direction: 'out',
          toNumber: other,
          fromNumber: own,
          date: t0,
          charge: 0.008,
          type: 'sms',
          text: 'Hi',
        },
      ],
    },
    invalidOutput: { totalRows: -1, smsList: [] },
  },
  getCallList: {
    validInput: { date: '2026-01', pageSize: '200', pageNo: '1' },
    invalidInput: { date: '2026-01', page: '1' },
    validOutput: {
      totalRows: 1,
      callList: [
        {
          _id: 'k1',
          direction: 'in',
          toNumber: own,
          fromNumber: other,
          destNum: own,
          srcNum: other,
          duration: 61,
          billingDuration: 61,
          line: 'commonLine',
          tariffId: 114,
          charge: 0.008,
          date: t0,
          type: 'voice',
        },
      ],
    },
    invalidOutput: { totalRows: 0, callList: [{ direction: 'in' }] },
  },
  getSubscriptionList: {
    validInput: { date: '2026-01' },
    invalidInput: { date: '202601' },
    validOutput: {
      totalRows: 1,
      list: [
        {
          _id: 'e1',
          number: own,
          type: 100,
          date: t0,
          charge: -4.09,
          historyId: 'h1',
          resDate: '2026-02-15',
          planId: 3,
        },
      ],
    },
    invalidOutput: {
      totalRows: 1,
      list: [
        { _id: 'e1', number: own, type: 4, date: t0, charge: 0, historyId: 'h1', resDate: '', planId: null },
      ],
    },
  },

  // --- rates ---
  getCountryRates: {
    validInput: { rateCountryCode: 'CA', rateType: 'sms' },
    invalidInput: { rateCountryCode: 'usa' },
    validOutput: {
      totalRows: 1,
      countryRateList: [
        { description: 'Canada', countryCode: '1', commonLineRate: 0.01, economicLineRate: 0.005 },
      ],
    },
    invalidOutput: {
      totalRows: 1,
      countryRateList: [
        { description: 'Canada', countryCode: '1', commonLineRate: '0.01', economicLineRate: null },
      ],
    },
  },

  // --- invite ---
  queryInviteInfo: {
    validInput: {},
    invalidInput: { code: 'x' },
    validOutput: {
      inviteCode: 'ABCD1234',
      inviteRules: ['Rule one'],
      inviteHint: 'Hint',
      earnTip: [{ title: 'Invite', text: 'Earn 0.2' }],
    },
    invalidOutput: { inviteCode: 'ABCD1234', inviteRules: [], inviteHint: '', earnTip: 'x' },
  },
  getInviteCode: {
    validInput: {},
    invalidInput: { x: 1 },
    validOutput: { inviteCode: 'ABCD1234' },
    invalidOutput: {},
  },
  getInviter: {
    validInput: { phone: '4155550123' },
    invalidInput: { phone: 'abc' },
    validOutput: { phone: '4155550123', telCode: '1', canSetInviter: true, balance: 0.2 },
    invalidOutput: { phone: '4155550123', telCode: '1', canSetInviter: 1, balance: 0.2 },
  },
  setInviter: {
    validInput: { inviteCode: 'abcd1234' },
    invalidInput: { inviteCode: 'a!' },
    validOutput: { balance: 0.4, bonus: 0.2 },
    invalidOutput: { balance: 0.4 },
  },

  // --- numbers ---
  getAreaCodeV2: {
    validInput: {},
    invalidInput: { country: 'US' },
    validOutput: {
      countries: [
        {
          code: 'US',
          telCode: '1',
          nameNcode: 'United States (+1)',
          typeList: [
            {
              type: 'local',
              name: 'Local',
              provinces: [{ code: 'US-CA', name: 'California', areaCodes: ['415'] }],
            },
          ],
        },
      ],
      defaultCode: 'US',
    },
    invalidOutput: { countries: [], defaultCode: 'FR' },
  },
  getVirtualPhoneByAreaCode: {
    validInput: { code: 'US', type: 'local', telCode: '1', areaCode: '415' },
    invalidInput: { code: 'FR', type: 'local', telCode: '33' },
    validOutput: { numbers: ['4155550123'] },
    invalidOutput: { numbers: ['+1 415'] },
  },
  getPlanList: {
    validInput: { code: 'GB', type: 'mobile' },
    invalidInput: { code: 'US' },
    validOutput: { planList: [plan] },
    invalidOutput: { planList: [{ ...plan, discount: 2 }] },
  },
  getManagePlanList: {
    validInput: { virtualNumber: own },
    invalidInput: { virtualNumber: '+1' },
    validOutput: {
      planList: [plan],
      profileStatus: 2,
      needSetPhone: false,
      currentPlanId: 1,
      pendingPlanId: null,
      pendingEffectiveDate: null,
    },
    invalidOutput: {
      planList: [plan],
      profileStatus: 2,
      needSetPhone: false,
      pendingPlanId: null,
      pendingEffectiveDate: null,
    },
  },
  preChangePlan: {
    validInput: { virtualNumber: own, planId: '2' },
    invalidInput: { virtualNumber: own, planId: 'x' },
    validOutput: {
      changeList: [{ type: 1, planId: 2, tip: '', payAmount: 5, planName: 'Unlimited', rule: '' }],
    },
    invalidOutput: {
      changeList: [{ type: 3, planId: 2, tip: '', payAmount: 5, planName: 'Unlimited', rule: '' }],
    },
  },
  changePlan: {
    validInput: { virtualNumber: own, planId: '2', type: '2' },
    invalidInput: { virtualNumber: own, planId: '2', type: '3' },
    validOutput: { successHint: 'Done', planHint: '' },
    invalidOutput: {},
  },
  subVirtualPhone: {
    validInput: { planId: 1, telCode: '1', phone: '4155550123', code: 'US', type: 'local' },
    invalidInput: { planId: 0, telCode: '1', phone: '4155550123', code: 'US', type: 'local' },
    validOutput: subResult,
    invalidOutput: { historyId: 'h1', subHint: '' },
  },
  reSubVirtualPhone: {
    validInput: { historyId: 'h1', date: t0 },
    invalidInput: { historyId: 'h1' },
    validOutput: subResult,
    invalidOutput: { ...subResult, date: 'today' },
  },
  unSubVirtualPhone: {
    validInput: { telCode: '1', phone: '4155550123' },
    invalidInput: { phone: '4155550123' },
    validOutput: {},
    invalidOutput: { refund: 1 },
  },
  setForward: {
    validInput: { forward: 1 },
    invalidInput: { forward: 2 },
    validOutput: { forwardStatus: 1, voicemailStatus: 0 },
    invalidOutput: { forwardStatus: 1, voicemailStatus: 2 },
  },
  setVoicemail: {
    validInput: { voicemail: '0' },
    invalidInput: { voicemail: true },
    validOutput: { forwardStatus: 0, voicemailStatus: 0 },
    invalidOutput: { forwardStatus: 0 },
  },

  // --- codes ---
  getAppList: {
    validInput: {},
    invalidInput: { q: 'wh' },
    validOutput: {
      appList: [app],
      countrys: [{ code: 'US', name: 'United States', telCode: '1', show: true }],
    },
    invalidOutput: {
      appList: [app],
      countrys: [{ code: 'US', name: 'United States', telCode: '1', show: 1 }],
    },
  },
  getVerificationCodePhoneListV2: {
    validInput: { app: 'whatsapp', code: 'US' },
    invalidInput: { app: 'whats app', code: 'US' },
    validOutput: { numbers: [phoneOption] },
    invalidOutput: { numbers: [{ ...phoneOption, numberType: 3 }] },
  },
  getVerificationCodePhoneListAnonymous: {
    validInput: { app: 'whatsapp', code: 'GB' },
    invalidInput: { app: 'whatsapp' },
    validOutput: { numbers: [] },
    invalidOutput: { numbers: [{ ...phoneOption, phone: 'abc' }] },
  },
  getCodeNumberFeeByAppV2: {
    validInput: { app: 'whatsapp', code: 'US' },
    invalidInput: { app: 'whatsapp', code: 'us' },
    validOutput: { fee: 0.1, subRent: 5 },
    invalidOutput: { fee: '0.1', subRent: 5 },
  },
  lockVerificationCodePhone: {
    validInput: {
      app: 'whatsapp',
      code: 'US',
      number: own,
      needLog: '1',
      numberType: '1',
      lastApp: 'telegram',
      lastNumber: other,
    },
    invalidInput: { app: 'whatsapp', code: 'US', numberType: '3' },
    validOutput: lockedPhone,
    invalidOutput: { ...lockedPhone, canSub: 2 },
  },
  getVerificationCodeSmsList: {
    validInput: { app: 'whatsapp', number: own, count: '180' },
    invalidInput: { app: 'whatsapp', number: own, count: '181' },
    validOutput: { smsList: [smsItem] },
    invalidOutput: { smsList: [{ ...smsItem, smsId: undefined }] },
  },
  getAppListByAccount: {
    validInput: {},
    invalidInput: { app: 'x' },
    validOutput: { appList: [app] },
    invalidOutput: { appList: null },
  },
  getCodeNumberListByAccount: {
    validInput: { app: 'whatsapp' },
    invalidInput: { app: '' },
    validOutput: { numbers: [verificationNumber] },
    invalidOutput: { numbers: [{ ...verificationNumber, subStatus: 2 }] },
  },
  subVerificationCodePhone: {
    validInput: { app: 'whatsapp', number: own },
    invalidInput: { app: 'whatsapp' },
    validOutput: subResult,
    invalidOutput: { subHint: 'ok' },
  },
  unSubVerificationCodePhone: {
    validInput: { app: 'whatsapp', number: own },
    invalidInput: { number: own },
    validOutput: {},
    invalidOutput: { status: 0 },
  },
  reSubVerificationCodePhone: {
    validInput: { historyId: 'h1', date: t0 },
    invalidInput: { historyId: 'h 1', date: t0 },
    validOutput: subResult,
    invalidOutput: { ...subResult, historyId: '' },
  },
  getSubCodeNumberList: {
    validInput: { ym: '2026-01' },
    invalidInput: { ym: '2026-1' },
    validOutput: {
      list: [
        {
          _id: 'e1',
          number: own,
          name: 'WhatsApp',
          type: 100,
          date: t0,
          charge: -5,
          historyId: 'h1',
          resDate: '',
          nextPaymentDate: '2026-02-15',
        },
      ],
      nextPage: 'cursor-2',
    },
    invalidOutput: {
      list: [
        {
          _id: 'e1',
          number: own,
          name: 'WhatsApp',
          type: 3,
          date: t0,
          charge: -5,
          historyId: 'h1',
          resDate: '',
          nextPaymentDate: '',
        },
      ],
      nextPage: null,
    },
  },
  getCodeSmsList: {
    validInput: { app: 'whatsapp', number: own, ym: '2026-01', pageSize: '20' },
    invalidInput: { app: 'whatsapp', number: own, ym: '2026-01', pageSize: '21' },
    validOutput: { smsList: [smsItem], nextPage: null },
    invalidOutput: { smsList: [] },
  },
  sendCodeSms: {
    validInput: { from: own, to: '+447700900123', app: 'whatsapp', text: 'STOP' },
    invalidInput: { from: own, to: '+447700900123', app: 'whatsapp', text: '  ' },
    validOutput: { smsId: 's-2', date: t0 },
    invalidOutput: { smsId: 's-2' },
  },
};

/** Endpoints whose input is deliberately not strict (confirmCaptcha forwards the next call's fields). */
const looseInputs = new Set<EndpointName>(['confirmCaptcha']);

const entries = Object.entries(endpoints) as [EndpointName, (typeof endpoints)[EndpointName]][];

describe('endpoint catalogue', () => {
  it('has fixtures for every endpoint, and no fixtures for unknown ones', () => {
    expect(Object.keys(fixtures).sort()).toEqual(Object.keys(endpoints).sort());
  });

  it('names every endpoint after its key', () => {
    for (const [key, ep] of entries) expect(ep.name, key).toBe(key);
  });

  it('puts every path under /web/ with a known method', () => {
    for (const [key, ep] of entries) {
      expect(ep.path.startsWith('/web/'), key).toBe(true);
      expect(['GET', 'POST', 'PUT', 'DELETE'], key).toContain(ep.method);
    }
  });

  it('has unique paths and unique method+path pairs', () => {
    const paths = entries.map(([, ep]) => ep.path);
    expect(new Set(paths).size).toBe(paths.length);
    const pairs = entries.map(([, ep]) => `${ep.method} ${ep.path}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('covers every call of both spec tables', () => {
    const specCalls = [
      'getVirtualPhoneList',
      'getChatList',
      'getChatListByDate',
      'getDialogList',
      'delSms',
      'speechToText',
      'getAdConfig',
      'getCloudAddressBook',
      'createOrUpdateCloudAddressBook',
      'delCloudAddressBook',
      'getVerifyCode',
      'requestToVerifyEmail',
      'validateCode',
      'validateCodeForEmail',
      'setPhoneForAccount',
      'updatePhone',
      'setEmailForAccount',
      'updateEmail',
      'getProfile',
      'updateProfile',
      'getKYCInfo',
      'updateKYCInfo',
      'paySubmit',
      'alipayPaySubmit',
      'cryptoCurrencyPaySubmit',
      'paypalPaySubmit',
      'etherPayPaySubmit',
      'getPaymentMethods',
      'getPaymentList',
      'getBillList',
      'getNormalSmsList',
      'getCallList',
      'getSubscriptionList',
      'getCountryRates',
      'queryInviteInfo',
      'getInviteCode',
      'getInviter',
      'setInviter',
      'getAreaCodeV2',
      'getVirtualPhoneByAreaCode',
      'getPlanList',
      'getManagePlanList',
      'preChangePlan',
      'changePlan',
      'subVirtualPhone',
      'reSubVirtualPhone',
      'unSubVirtualPhone',
      'setForward',
      'setVoicemail',
      'getAppList',
      'getVerificationCodePhoneListV2',
      'getCodeNumberFeeByAppV2',
      'lockVerificationCodePhone',
      'getVerificationCodeSmsList',
      'getAppListByAccount',
      'getCodeNumberListByAccount',
      'subVerificationCodePhone',
      'unSubVerificationCodePhone',
      'reSubVerificationCodePhone',
      'getSubCodeNumberList',
      'getCodeSmsList',
      'sendCodeSms',
      'preLogin',
      'login',
      'refreshToken',
      'queryBalance',
      'getAccountInfo',
      'captcha',
      'genCaptcha',
      'confirmCaptcha',
    ];
    for (const name of specCalls) expect(endpoints, name).toHaveProperty(name);
  });

  it('uses the methods of the spec tables', () => {
    const m = (name: EndpointName) => endpoints[name].method;
    expect(m('delSms')).toBe('DELETE');
    expect(m('changePlan')).toBe('GET');
    expect(m('subVerificationCodePhone')).toBe('GET');
    expect(m('unSubVerificationCodePhone')).toBe('GET');
    expect(m('reSubVerificationCodePhone')).toBe('POST');
    expect(m('delCloudAddressBook')).toBe('POST');
    expect(m('sendCodeSms')).toBe('POST');
    expect(m('cancelPayment')).toBe('POST');
    expect(endpoints.alipayPaySubmit.path).toBe('/web/alipay/paySubmit');
    expect(endpoints.etherPayPaySubmit.path).toBe('/web/etherPay/paySubmit');
  });

  it('marks access: optional for front-page calls, public only for anonymous-only ones', () => {
    const optional = entries
      .filter(([, ep]) => ep.access === 'optional')
      .map(([k]) => k)
      .sort();
    expect(optional).toEqual(
      [
        'confirmCaptcha',
        'getAdConfig',
        'getAppList',
        'getAreaCodeV2',
        'getCountryRates',
        'getPlanList',
      ].sort(),
    );
    const pub = entries
      .filter(([, ep]) => ep.access === 'public')
      .map(([k]) => k)
      .sort();
    expect(pub).toEqual(
      ['captcha', 'genCaptcha', 'getVerificationCodePhoneListAnonymous', 'login', 'preLogin'].sort(),
    );
  });

  it('marks only updateKYCInfo as multipart', () => {
    expect(entries.filter(([, ep]) => ep.multipart).map(([k]) => k)).toEqual(['updateKYCInfo']);
  });
});

describe.each(entries)('%s', (name, ep) => {
  const f = fixtures[name];

  it('accepts the valid input', () => {
    const r = ep.input.safeParse(f.validInput);
    expect(r.error?.issues ?? [], JSON.stringify(f.validInput)).toEqual([]);
  });

  it('refuses the invalid input', () => {
    expect(ep.input.safeParse(f.invalidInput).success).toBe(false);
  });

  it(
    looseInputs.has(name)
      ? 'passes the next call’s fields through (checked by that call)'
      : 'refuses unknown input fields',
    () => {
      const r = ep.input.safeParse({ ...f.validInput, unexpectedField: '1' });
      if (looseInputs.has(name)) expect(r.data).toMatchObject({ unexpectedField: '1' });
      else expect(r.success).toBe(false);
    },
  );

  it('accepts the valid output', () => {
    const r = ep.output.safeParse(f.validOutput);
    expect(r.error?.issues ?? []).toEqual([]);
  });

  it('refuses the invalid output', () => {
    expect(ep.output.safeParse(f.invalidOutput).success).toBe(false);
  });
});

describe('parsing details', () => {
  it('turns query strings into numbers and applies the spec defaults', () => {
    expect(endpoints.getDialogList.input.parse({ ownFullNumber: own, otherFullNumber: other })).toEqual({
      ownFullNumber: own,
      otherFullNumber: other,
      pageSize: 500,
    });
    expect(endpoints.getChatList.input.parse({})).toEqual({ months: 4 });
    expect(endpoints.getChatList.input.parse({ months: '0' })).toEqual({ months: 0 });
    expect(endpoints.getPaymentList.input.parse({ date: '2026-01' })).toEqual({
      date: '2026-01',
      pageSize: 1000,
      pageNo: 1,
    });
    expect(endpoints.getBillList.input.parse({ ym: '2026-01' })).toMatchObject({ pageSize: 200 });
    expect(endpoints.getCountryRates.input.parse({})).toEqual({
      rateCountryCode: 'US',
      rateType: 'call',
      pageSize: 100,
      pageNo: 1,
    });
    expect(endpoints.getCodeSmsList.input.parse({ app: 'a', number: own, ym: '2026-01' })).toMatchObject({
      pageSize: 20,
    });
    expect(endpoints.setForward.input.parse({ forward: '1' })).toEqual({ forward: 1 });
    expect(endpoints.changePlan.input.parse({ virtualNumber: own, planId: '7', type: '1' })).toEqual({
      virtualNumber: own,
      planId: 7,
      type: 1,
    });
  });

  it('parses JSON-text parameters into their shape', () => {
    const parsed = endpoints.delSms.input.parse({
      sms: JSON.stringify([
        { smsId: 'a', date: 1 },
        { smsId: 'b', date: 2 },
      ]),
    });
    expect(parsed.sms).toEqual([
      { smsId: 'a', date: 1 },
      { smsId: 'b', date: 2 },
    ]);
    expect(endpoints.delSms.input.safeParse({ sms: JSON.stringify([{ smsId: 'a' }]) }).success).toBe(false);
    expect(endpoints.delSms.input.safeParse({ sms: '[]' }).success).toBe(false);
    const s = jsonString(z.object({ a: z.number() }));
    expect(s.parse('{"a":1}')).toEqual({ a: 1 });
    const bad = s.safeParse('{a:1}');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Expected JSON text');
  });

  it('takes a chat delete by both numbers, never by one or both forms', () => {
    expect(endpoints.delSms.input.safeParse({ from: own, to: other }).success).toBe(true);
    expect(endpoints.delSms.input.safeParse({ from: own }).success).toBe(false);
    expect(
      endpoints.delSms.input.safeParse({ from: own, to: other, sms: '[{"smsId":"a","date":1}]' }).success,
    ).toBe(false);
    expect(endpoints.delSms.input.safeParse({}).success).toBe(false);
  });

  it('normalises contacts: phone without +, default tag and blanks, limits', () => {
    const book = AddressBook.parse({ name: ' Ann ', phoneList: [{ phone: '+14155550123', telCode: '1' }] });
    expect(book).toEqual({
      name: 'Ann',
      phoneList: [{ phone: '14155550123', telCode: '1', tag: 'Other' }],
      email: '',
      companyName: '',
      note: '',
    });
    expect(ContactPhone.safeParse({ phone: '+447700900123', telCode: '1', tag: 'Home' }).success).toBe(false);
    const six = Array.from({ length: 6 }, () => ({ phone: '14155550123', telCode: '1' }));
    expect(AddressBook.safeParse({ name: 'A', phoneList: six }).success).toBe(false);
    expect(
      AddressBook.safeParse({ name: 'A', phoneList: six.slice(0, 5), note: 'n'.repeat(101) }).success,
    ).toBe(false);
    expect(
      AddressBook.safeParse({ name: 'A', phoneList: six.slice(0, 1), companyName: 'c'.repeat(20) }).success,
    ).toBe(true);
    const entry = endpoints.getCloudAddressBook.output.parse({
      addressBookList: [
        { id: 'c1', addressBook: JSON.stringify(addressBook), date: 1, localId: '', accountId: 'a' },
      ],
      nextStartTime: 1,
    });
    expect(entry.addressBookList[0]?.addressBook.phoneList[0]?.phone).toBe('14155550123');
    expect(endpoints.delCloudAddressBook.input.parse({ ids: 'a, b,,c' })).toEqual({ ids: ['a', 'b', 'c'] });
  });

  it('checks crypto networks (none for ETH and BCH, no TRC-20 for USDC)', () => {
    const ep = endpoints.etherPayPaySubmit.input;
    const base = { productid: 'crypto_web_usd_10' };
    expect(ep.safeParse({ ...base, currency: 'ETH' }).success).toBe(true);
    expect(ep.safeParse({ ...base, currency: 'ETH', network: 'ERC-20' }).success).toBe(false);
    expect(ep.safeParse({ ...base, currency: 'USDT', network: 'TRC-20' }).success).toBe(true);
    expect(ep.safeParse({ ...base, currency: 'USDT' }).success).toBe(false);
    expect(ep.safeParse({ ...base, currency: 'DOGE', network: 'BSC' }).success).toBe(false);
  });

  it('ties custom_amount to CUSTOM products', () => {
    const ep = endpoints.paySubmit.input;
    expect(
      ep.safeParse({
        payment_method: 'wechatpay',
        productid: 'wechatpay_web_cny_CUSTOM',
        custom_amount: 12.5,
      }).success,
    ).toBe(true);
    expect(
      ep.safeParse({ payment_method: 'wechatpay', productid: 'wechatpay_web_usd_10', custom_amount: 10 })
        .success,
    ).toBe(false);
    expect(
      ep.safeParse({
        payment_method: 'wechatpay',
        productid: 'wechatpay_web_usd_CUSTOM',
        custom_amount: 12.345,
      }).success,
    ).toBe(false);
    expect(ep.safeParse({ payment_method: 'alipay', productid: 'alipay_web_usd_10' }).success).toBe(false);
    expect(ep.parse({ payment_method: 'creditCard', productid: 'card_web_usd_10' })).toMatchObject({
      method: 'web',
      devicetype: 'web',
      browser_type: 'PC',
    });
  });

  it('builds and reads product ids', () => {
    expect(productId('creditCard', 'usd', 10)).toBe('card_web_usd_10');
    expect(productId('wechatpay', 'cny', 'CUSTOM')).toBe('wechatpay_web_cny_CUSTOM');
    expect(parseProductId('card_web_usd_10')).toEqual({ prefix: 'card', currency: 'usd', amount: 10 });
    expect(parseProductId('alipay_web_cny_CUSTOM')).toEqual({
      prefix: 'alipay',
      currency: 'cny',
      amount: 'CUSTOM',
    });
    expect(parseProductId('card-usd-10')).toBeNull();
    for (const way of Object.keys(constants.productPrefixes) as (keyof typeof constants.productPrefixes)[]) {
      expect(
        endpoints.alipayPaySubmit.input.shape.productid.safeParse(productId(way, 'usd', 5)).success,
        way,
      ).toBe(true);
    }
  });

  it('normalises e-mail, invite codes and SMS recipients', () => {
    expect(endpoints.requestToVerifyEmail.input.parse({ email: ' Ann@Example.COM ' })).toEqual({
      email: 'ann@example.com',
    });
    expect(endpoints.setInviter.input.parse({ inviteCode: ' abcd12 ' })).toEqual({ inviteCode: 'ABCD12' });
    expect(
      endpoints.sendCodeSms.input.parse({ from: own, to: '+447700900123', app: 'x', text: 'hi' }).to,
    ).toBe('447700900123');
  });
});
