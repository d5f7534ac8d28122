import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { endpoints, sttLanguageTags } from '@numa/contract';
import { pino } from 'pino';
import { ManualClock } from '../src/lib/clock';
import { decodeWav, prepareAudio } from '../src/providers/stt/audio';
import { providerLanguage, whisperLanguages } from '../src/providers/stt/languages';
import { joinTranscripts, OpenAiCompatibleStt, type OpenAiSttOptions } from '../src/providers/stt/openai';
import {
  SttFailedError,
  SttUnavailableError,
  SttUnsupportedLanguageError,
  type SttPort,
} from '../src/providers/stt/port';
import { createCachedStt } from '../src/services/stt';
import { makeUser } from './chat-support';
import { openTestDb, startTestApp, type TestApp, type TestDb } from './helpers';
import { startSttStandin, sttFixture, type SttCall, type SttReply } from './fixtures/openai-stt-standin';

const key = 'sk-test-0123456789abcdef1234';

/** Speech-like audio: tone bursts (words) with pauses, at a rate and channel count of a carrier's recording. */
function recording(p: {
  seconds: number;
  rate: number;
  channels?: number;
  pauses?: number[];
  depth?: '16' | '8m';
}) {
  const n = Math.round(p.seconds * p.rate);
  const mono = new Int16Array(n);
  const pauses = (p.pauses ?? []).map((s) => Math.round(s * p.rate));
  for (let i = 0; i < n; i++) {
    const inPause = pauses.some((at) => i >= at - p.rate * 0.15 && i < at + p.rate * 0.15);
    mono[i] = inPause ? 0 : Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / p.rate));
  }
  const wav = new wavefile.WaveFile();
  const channels = p.channels ?? 1;
  wav.fromScratch(
    channels,
    p.rate,
    '16',
    channels === 1 ? mono : Array.from({ length: channels }, () => mono),
  );
  if (p.depth === '8m') wav.toMuLaw();
  return Buffer.from(wav.toBuffer());
}

describe('speech-to-text locales', () => {
  it("maps every locale of the spec's list to Whisper's codes, Chinese with its script, auto to detection; Zulu is not heard", () => {
    expect(sttLanguageTags.length).toBeGreaterThan(120);
    const unheard = sttLanguageTags.filter((t) => providerLanguage(t) === null);
    expect(unheard).toEqual(['zu-ZA']);
    for (const tag of sttLanguageTags) {
      const lang = providerLanguage(tag);
      if (lang?.code) expect(whisperLanguages.has(lang.code), tag).toBe(true);
    }
    expect(providerLanguage('auto')).toEqual({ code: null });
    expect(providerLanguage('en-US')).toEqual({ code: 'en' });
    expect(providerLanguage('fil-PH')).toEqual({ code: 'tl' });
    expect(providerLanguage('jv-ID')).toEqual({ code: 'jw' });
    expect(providerLanguage('cmn-Hans-CN')).toEqual({ code: 'zh', prompt: '以下是普通话的句子。' });
    expect(providerLanguage('cmn-Hant-TW')).toEqual({ code: 'zh', prompt: '以下是普通話的句子。' });
    expect(providerLanguage('yue-Hant-HK')?.prompt).toBe('以下是普通話的句子。');
  });

  it('joins parts with spaces between words and none between Chinese characters', () => {
    expect(joinTranscripts(['Hello there.', ' How are you? ', ''])).toBe('Hello there. How are you?');
    expect(joinTranscripts(['你好，我是', '快递员。'])).toBe('你好，我是快递员。');
  });
});

describe('audio for the provider', () => {
  it("converts a carrier's WAV (stereo 44.1 kHz, or µ-law 8 kHz) to 16-bit mono at no more than 16 kHz", async () => {
    const stereo = recording({ seconds: 2, rate: 44_100, channels: 2 });
    const [part] = await prepareAudio(stereo, { maxBytes: 26_214_400, maxSeconds: 600 });
    const wav = new wavefile.WaveFile(part!.bytes);
    expect(wav.fmt).toMatchObject({ numChannels: 1, sampleRate: 16_000, bitsPerSample: 16 });
    expect(part!.seconds).toBeCloseTo(2, 1);
    expect(part!.bytes.byteLength).toBeLessThan(stereo.byteLength / 5);
    const mulaw = recording({ seconds: 1, rate: 8000, depth: '8m' });
    const decoded = decodeWav(mulaw);
    expect(decoded.rate).toBe(8000);
    expect(Math.max(...decoded.samples)).toBeGreaterThan(7000);
  });

  it('cuts a long recording into parts at its pauses, each within the limits', async () => {
    const long = recording({ seconds: 25, rate: 8000, pauses: [9.2, 18.5] });
    const parts = await prepareAudio(long, { maxBytes: 26_214_400, maxSeconds: 10 });
    expect(parts.length).toBe(3);
    // each cut falls inside a pause (the silence around 9.2 s and 18.5 s), never in a "word"
    const cut1 = parts[0]!.seconds!;
    const cut2 = cut1 + parts[1]!.seconds!;
    expect(Math.abs(cut1 - 9.2)).toBeLessThan(0.15);
    expect(Math.abs(cut2 - 18.5)).toBeLessThan(0.15);
    expect(cut2 + parts[2]!.seconds!).toBeCloseTo(25, 3);
    // a size limit cuts too (1 MiB at 8 kHz 16-bit: about 61 s per part)
    const big = recording({ seconds: 130, rate: 8000 });
    const bySize = await prepareAudio(big, { maxBytes: 1_048_576, maxSeconds: 3600 });
    expect(bySize.length).toBe(3);
    for (const p of bySize) expect(p.bytes.byteLength).toBeLessThan(1_048_576 - 64 * 1024);
  });

  it('sends the compressed formats the provider takes as they are and refuses the others', async () => {
    // a FLAC stream's header (magic and STREAMINFO) is enough to know the format
    const flac = Buffer.concat([Buffer.from('fLaC'), Buffer.from([0x80, 0, 0, 34]), Buffer.alloc(64)]);
    const [part] = await prepareAudio(flac, { maxBytes: 26_214_400, maxSeconds: 600 });
    expect(part).toMatchObject({ mime: 'audio/flac', fileName: 'audio.flac' });
    await expect(
      prepareAudio(Buffer.from('not audio at all'), { maxBytes: 26_214_400, maxSeconds: 600 }),
    ).rejects.toBeInstanceOf(SttFailedError);
    await expect(prepareAudio(flac, { maxBytes: 65_000, maxSeconds: 600 })).rejects.toBeInstanceOf(
      SttFailedError,
    );
  });
});

describe('OpenAI-compatible transcription adapter', () => {
  let standin: Awaited<ReturnType<typeof startSttStandin>>;
  let reply: (call: SttCall, n: number) => SttReply = () => ({
    status: 200,
    body: sttFixture('transcription-en'),
  });
  beforeAll(async () => {
    standin = await startSttStandin({ apiKey: key, reply: (c, n) => reply(c, n) });
  });
  afterAll(() => standin.close());

  const adapter = (o: Partial<OpenAiSttOptions> = {}) =>
    new OpenAiCompatibleStt({
      baseURL: standin.url,
      apiKey: key,
      model: 'whisper-1',
      timeoutMs: 5000,
      maxRetries: 0,
      maxUploadBytes: 26_214_400,
      chunkSeconds: 600,
      ...o,
    });
  const voicemail = recording({ seconds: 3, rate: 8000 });
  const ask = (language: string, o: Partial<OpenAiSttOptions> = {}) =>
    adapter(o).transcribe({ bytes: voicemail, mime: 'audio/wav', language });

  it('transcribes English: model, language, format and the converted file as the provider documents them', async () => {
    reply = () => ({ status: 200, body: sttFixture('transcription-en') });
    const before = standin.calls.length;
    expect(await ask('en-US')).toBe(sttFixture('transcription-en').text);
    const call = standin.calls[before]!;
    expect(call).toMatchObject({
      authorization: `Bearer ${key}`,
      model: 'whisper-1',
      language: 'en',
      prompt: null,
      responseFormat: 'json',
      fileName: 'audio.wav',
      fileType: 'audio/wav',
    });
    expect(new wavefile.WaveFile(call.file).fmt).toMatchObject({ numChannels: 1, sampleRate: 8000 });
  });

  it('transcribes Chinese with the script hint, and automatic language with no language sent', async () => {
    reply = (c) => ({
      status: 200,
      body: sttFixture(c.language === 'zh' ? 'transcription-zh' : 'transcription-auto'),
    });
    const before = standin.calls.length;
    expect(await ask('cmn-Hans-CN')).toBe(sttFixture('transcription-zh').text);
    expect(standin.calls[before]).toMatchObject({ language: 'zh', prompt: '以下是普通话的句子。' });
    expect(await ask('auto')).toBe(sttFixture('transcription-auto').text);
    expect(standin.calls[before + 1]).toMatchObject({ language: null, prompt: null });
  });

  it('a long recording goes in parts, each with the transcript so far as its prompt', async () => {
    reply = (_c, n) => ({ status: 200, body: { text: `part ${n}.` } });
    const long = recording({ seconds: 25, rate: 8000, pauses: [9.2, 18.5] });
    const before = standin.calls.length;
    const text = await adapter({ chunkSeconds: 10 }).transcribe({
      bytes: long,
      mime: 'audio/wav',
      language: 'en-GB',
    });
    const n = before + 1;
    expect(text).toBe(`part ${n}. part ${n + 1}. part ${n + 2}.`);
    const calls = standin.calls.slice(before);
    expect(calls.map((c) => c.fileName)).toEqual(['audio.wav', 'audio-2.wav', 'audio-3.wav']);
    expect(calls.map((c) => c.prompt)).toEqual([null, `part ${n}.`, `part ${n}. part ${n + 1}.`]);
  });

  it('maps the documented errors: unsupported language, audio it cannot hear, key, quota, rate limit, overload, timeout', async () => {
    // a locale the provider does not hear is refused before any (paid) call
    const before = standin.calls.length;
    await expect(ask('zu-ZA')).rejects.toBeInstanceOf(SttUnsupportedLanguageError);
    expect(standin.calls.length).toBe(before);

    const cases: [string, number, new (...a: never[]) => Error][] = [
      ['error-invalid-language', 400, SttUnsupportedLanguageError],
      ['error-audio-too-short', 400, SttFailedError],
      ['error-invalid-file-format', 400, SttFailedError],
      ['error-insufficient-quota', 429, SttUnavailableError],
      ['error-rate-limit', 429, SttUnavailableError],
      ['error-server-overloaded', 503, SttUnavailableError],
    ];
    for (const [fixture, status, kind] of cases) {
      reply = () => ({ status, body: sttFixture(fixture) });
      await expect(ask('en-US'), fixture).rejects.toBeInstanceOf(kind);
    }
    // a wrong key: the provider's 401
    await expect(ask('en-US', { apiKey: 'sk-wrong-key' })).rejects.toBeInstanceOf(SttUnavailableError);
    // silence: an empty transcript
    reply = () => ({ status: 200, body: { text: '  ' } });
    await expect(ask('en-US')).rejects.toBeInstanceOf(SttFailedError);
    // an overloaded provider retried by the SDK succeeds on the second try
    let tries = 0;
    reply = () =>
      tries++ === 0
        ? { status: 503, body: sttFixture('error-server-overloaded') }
        : { status: 200, body: sttFixture('transcription-en') };
    expect(await ask('en-US', { maxRetries: 1 })).toBe(sttFixture('transcription-en').text);
    expect(tries).toBe(2);
    // no answer in time
    reply = () => 'hang';
    await expect(ask('en-US', { timeoutMs: 200 })).rejects.toBeInstanceOf(SttUnavailableError);
  });
});

describe('speech-to-text kept per recording and language', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.drop());

  it('two servers asked at once for the same recording and language make one provider call', async () => {
    let calls = 0;
    let finish!: (text: string) => void;
    const slow: SttPort = {
      name: 'test',
      transcribe: () => {
        calls++;
        return new Promise<string>((r) => (finish = r));
      },
    };
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    const log = pino({ level: 'silent' });
    const serverA = createCachedStt({ db, port: slow, clock, log, options: { waitPollMs: 5 } });
    const serverB = createCachedStt({ db, port: slow, clock, log, options: { waitPollMs: 5 } });
    const bytes = recording({ seconds: 1, rate: 8000 });
    const a = serverA.transcribe({ bytes, mime: 'audio/wav', language: 'en-US' });
    const a2 = serverA.transcribe({ bytes, mime: 'audio/wav', language: 'en-US' });
    // B waits for A's claim in the database
    await expect.poll(() => calls).toBe(1);
    const b = serverB.transcribe({ bytes, mime: 'audio/wav', language: 'en-US' });
    finish('hello from A');
    expect(await Promise.all([a, a2, b])).toEqual(['hello from A', 'hello from A', 'hello from A']);
    expect(calls).toBe(1);
    // another language is another call; a failure is kept too, an outage is not
    const failing: SttPort = {
      name: 'test',
      transcribe: async (r) => {
        calls++;
        if (r.language === 'fr-FR') throw new SttFailedError('no speech');
        throw new SttUnavailableError();
      },
    };
    const serverC = createCachedStt({ db, port: failing, clock, log });
    await expect(serverC.transcribe({ bytes, mime: 'audio/wav', language: 'fr-FR' })).rejects.toBeInstanceOf(
      SttFailedError,
    );
    await expect(serverC.transcribe({ bytes, mime: 'audio/wav', language: 'fr-FR' })).rejects.toBeInstanceOf(
      SttFailedError,
    );
    expect(calls).toBe(2);
    await expect(serverC.transcribe({ bytes, mime: 'audio/wav', language: 'de-DE' })).rejects.toBeInstanceOf(
      SttUnavailableError,
    );
    await expect(serverC.transcribe({ bytes, mime: 'audio/wav', language: 'de-DE' })).rejects.toBeInstanceOf(
      SttUnavailableError,
    );
    expect(calls).toBe(4);
    expect(await serverC.transcribe({ bytes, mime: 'audio/wav', language: 'en-US' })).toBe('hello from A');
    expect(calls).toBe(4);
    const rows = await db.query(`SELECT language, status FROM stt_transcripts ORDER BY language`);
    expect(rows).toEqual([
      { language: 'en-US', status: 'done' },
      { language: 'fr-FR', status: 'failed' },
    ]);
  });
});

describe('speechToText through the app with STT=openai', () => {
  let t: TestApp;
  let standin: Awaited<ReturnType<typeof startSttStandin>>;
  beforeAll(async () => {
    standin = await startSttStandin({
      apiKey: key,
      reply: (c) => ({
        status: 200,
        body: sttFixture(c.language === 'zh' ? 'transcription-zh' : 'transcription-en'),
      }),
    });
    t = await startTestApp({
      envOverrides: { STT: 'openai', STT_API_URL: standin.url, STT_API_KEY: key, STT_MAX_RETRIES: '0' },
    });
  });
  afterAll(async () => {
    await t.close();
    await standin.close();
  });

  it('answers in English and Chinese, once per recording and language, and says when a language is not supported', async () => {
    const a = await makeUser(t, { number: '+14155550381' });
    const wav = recording({ seconds: 2, rate: 8000 });
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '12125550700', to: a.number, type: 'voicemail', media: [wav.toString('base64')] },
    });
    const dialog = () =>
      a.c.get(endpoints.getDialogList.path, { ownFullNumber: a.number, otherFullNumber: '12125550700' });
    const [vm] = (await dialog()).body.data.dialogList;
    const en = await a.c.get(endpoints.speechToText.path, {
      media: vm.media,
      smsId: vm.smsId,
      language: 'en-US',
    });
    expect(en.body).toMatchObject({ retcode: 0, data: { text: sttFixture('transcription-en').text } });
    expect((await dialog()).body.data.dialogList[0]).toMatchObject({
      stt: sttFixture('transcription-en').text,
      sttStatus: 2,
    });
    const again = await a.c.get(endpoints.speechToText.path, { media: vm.media, language: 'en-US' });
    expect(again.body.data.text).toBe(sttFixture('transcription-en').text);
    expect(standin.calls.length).toBe(1);
    const zh = await a.c.get(endpoints.speechToText.path, { media: vm.media, language: 'cmn-Hans-CN' });
    expect(zh.body.data.text).toBe(sttFixture('transcription-zh').text);
    expect(standin.calls.length).toBe(2);

    const zulu = await a.c.get(endpoints.speechToText.path, {
      media: vm.media,
      smsId: vm.smsId,
      language: 'zu-ZA',
    });
    expect([zulu.status, zulu.body.retcode]).toEqual([400, 600002]);
    expect(zulu.body.retmsg).toMatch(/does not support this language/);
    // the transcript made before stays on the message
    expect((await dialog()).body.data.dialogList[0]).toMatchObject({ sttStatus: 2 });
    expect(standin.calls.length).toBe(2);
  });
});
