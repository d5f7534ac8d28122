import { describe, expect, it } from 'vitest';
import {
  Kicked,
  ReceiveMessage,
  SendMessage,
  SendMms,
  SendPayload,
  SocketErrorData,
  SocketQuery,
  constants,
  socketEvents,
  socketPath,
} from '../src/index';

const text = {
  fromNumber: '14155550123',
  toNumber: '14155550199',
  text: 'Hello',
  msgType: 'sms',
  smsId: '3f2b9c1e-7a4d-4f7e-9a51-2c0d8e6b1a77',
  platform: 'numa',
  languagecode: 'en',
};
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
/** Node's Buffer, reached without Node typings (the package has none). */
const NodeBuffer = (globalThis as unknown as { Buffer: { from(bytes: Uint8Array): Uint8Array } }).Buffer;
const mms = {
  fromNumber: '14155550123',
  toNumber: '14155550199',
  fileBuffer: png,
  fileType: 'image/png',
  fileName: 'photo.png',
  msgType: 'mms',
  smsId: 'mms-1',
  platform: 'wephone',
  languagecode: 'zh_cn',
};
const received = {
  fromNumber: '14155550199',
  toNumber: '14155550123',
  fromPhone: '4155550199',
  toPhone: '4155550123',
  fromTelCode: '1',
  toTelCode: '1',
  direction: 'in',
  msgType: 'sms',
  text: 'Hi there',
  media: '',
  smsId: 'srv-1',
  time: Date.UTC(2026, 0, 15),
  status: 0,
  retmsg: '',
  highlightTarget: '',
  highlightText: '',
};

describe('socket constants', () => {
  it('uses /webchat and the spec event names', () => {
    expect(socketPath).toBe('/webchat');
    expect(socketEvents).toEqual({
      // beyond the spec: the account's balance after every committed ledger change (issue 10)
      balance: 'balance',
      sendMessage: 'sendMessage',
      receiveMessage: 'receiveMessage',
      kicked: 'kicked',
      // beyond the spec: a received verification code, before the next poll (issue 12)
      codeSms: 'codeSms',
      // beyond the spec: a number's rent could not be paid, the grace period started (issue 11)
      renewalFailed: 'renewalFailed',
      // beyond the spec: a scheduled message changed (issue 22 §2)
      scheduled: 'scheduled',
    });
    expect(constants.mmsMaxBytes).toBe(5 * 1024 * 1024);
    expect(constants.mmsMimeTypes).toContain('image/jpeg');
  });
});

describe('handshake', () => {
  it('needs a token and keeps socket.io keys out', () => {
    expect(SocketQuery.parse({ token: 'abc', EIO: '4', transport: 'websocket' })).toEqual({ token: 'abc' });
    expect(SocketQuery.safeParse({}).success).toBe(false);
    expect(SocketQuery.safeParse({ token: '' }).success).toBe(false);
    expect(SocketQuery.safeParse({ token: 'abc', languagecode: 'fr' }).success).toBe(false);
    expect(SocketErrorData.safeParse({ retcode: 100012, retmsg: 'Invalid' }).success).toBe(true);
    expect(SocketErrorData.safeParse({ code: 100012 }).success).toBe(false);
  });
});

describe('sendMessage (text)', () => {
  it('accepts a valid text message', () => {
    expect(SendMessage.safeParse(text).success).toBe(true);
    expect(SendPayload.parse(text).msgType).toBe('sms');
  });
  it.each([
    ['empty text', { ...text, text: '   ' }],
    ['too long text', { ...text, text: 'x'.repeat(constants.smsTextMax + 1) }],
    ['a short recipient', { ...text, toNumber: '1234' }],
    ['a + in the number', { ...text, fromNumber: '+14155550123' }],
    ['an unknown brand', { ...text, platform: 'other' }],
    ['a long smsId', { ...text, smsId: 'a'.repeat(65) }],
    ['a wrong msgType', { ...text, msgType: 'mms' }],
    ['an unknown field', { ...text, extra: 1 }],
    ['a missing languagecode', { ...text, languagecode: undefined }],
  ])('refuses %s', (_label, payload) => {
    expect(SendMessage.safeParse(payload).success).toBe(false);
  });
});

describe('sendMessage (MMS)', () => {
  it('accepts a Uint8Array, a Node Buffer or an ArrayBuffer, with optional text', () => {
    expect(SendMms.safeParse(mms).success).toBe(true);
    expect(SendMms.safeParse({ ...mms, fileBuffer: NodeBuffer.from(png) }).success).toBe(true);
    expect(SendMms.safeParse({ ...mms, fileBuffer: png.buffer }).success).toBe(true);
    expect(SendMms.safeParse({ ...mms, text: 'look' }).success).toBe(true);
    expect(SendPayload.parse(mms).msgType).toBe('mms');
  });
  it.each([
    ['a string body', { ...mms, fileBuffer: 'iVBORw0KGgo=' }],
    ['an array of numbers', { ...mms, fileBuffer: [1, 2, 3] }],
    ['an empty file', { ...mms, fileBuffer: new Uint8Array(0) }],
    ['a file over the limit', { ...mms, fileBuffer: new Uint8Array(constants.mmsMaxBytes + 1) }],
    ['a non-image type', { ...mms, fileType: 'application/pdf' }],
    ['no file name', { ...mms, fileName: '' }],
    ['msgType sms', { ...mms, msgType: 'sms' }],
  ])('refuses %s', (_label, payload) => {
    expect(SendMms.safeParse(payload).success).toBe(false);
  });
  it('accepts a file of exactly the limit', () => {
    expect(SendMms.safeParse({ ...mms, fileBuffer: new Uint8Array(constants.mmsMaxBytes) }).success).toBe(
      true,
    );
  });
  it('refuses payloads that are neither form', () => {
    expect(SendPayload.safeParse({ ...text, msgType: 'voicemail' }).success).toBe(false);
    expect(SendPayload.safeParse(null).success).toBe(false);
  });
});

describe('receiveMessage', () => {
  it('accepts incoming messages and send confirmations', () => {
    expect(ReceiveMessage.safeParse(received).success).toBe(true);
    const failed = {
      ...received,
      direction: 'out',
      fromNumber: '14155550123',
      toNumber: '18005550100',
      status: 2,
      retcode: 300030,
      retmsg: 'This number needs toll-free registration before it can send messages.',
    };
    expect(ReceiveMessage.parse(failed).retcode).toBe(300030);
    expect(
      ReceiveMessage.safeParse({ ...received, fromNumber: 'WhatsApp', msgType: 'verificationCode' }).success,
    ).toBe(true);
    expect(
      ReceiveMessage.safeParse({ ...received, msgType: 'mms', media: 'https://a/1.png,https://a/2.png' })
        .success,
    ).toBe(true);
  });
  it.each([
    ['status 3', { ...received, status: 3 }],
    ['an unknown msgType', { ...received, msgType: 'fax' }],
    ['a string time', { ...received, time: '2026-01-15' }],
    ['a sideways direction', { ...received, direction: 'both' }],
    ['a missing smsId', { ...received, smsId: undefined }],
    ['a missing retmsg', { ...received, retmsg: undefined }],
  ])('refuses %s', (_label, payload) => {
    expect(ReceiveMessage.safeParse(payload).success).toBe(false);
  });
});

describe('kicked', () => {
  it('carries a session retcode', () => {
    for (const retcode of [100008, 100012, 100013, 100014, 200018]) {
      expect(Kicked.safeParse({ retcode, retmsg: '' }).success).toBe(true);
    }
    expect(Kicked.safeParse({ retcode: 400001, retmsg: '' }).success).toBe(false);
    expect(Kicked.safeParse({ retcode: 100014 }).success).toBe(false);
  });
});
