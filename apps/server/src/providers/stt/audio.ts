import type wavefile from 'wavefile';
import { lazy } from '../../lib/lazy';
import { SttFailedError } from './port';

/** One upload: a whole recording, or a part of a long one. */
export interface AudioPart {
  bytes: Uint8Array;
  mime: string;
  fileName: string;
  /** Its length, when known (WAV). */
  seconds?: number;
}

export interface PrepareOptions {
  /** The provider's largest upload (bytes; OpenAI: 25 MB). */
  maxBytes: number;
  /** The longest part sent in one request (seconds). */
  maxSeconds: number;
}

/** Formats an OpenAI-compatible transcription endpoint takes as they are (its documented list). */
const passThrough: Record<string, string> = {
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  mpga: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  webm: 'audio/webm',
};

/** Speech needs no more than 16 kHz (the rate Whisper models hear at); telephone audio has 8 kHz. */
const targetRate = 16_000;
/** Room for the multipart envelope and the other fields of the request. */
const envelopeBytes = 64 * 1024;

/**
 * A recording made ready for the provider. A WAV (the carriers' recordings: PCM, µ-law, A-law or
 * IMA ADPCM, any rate, mono or stereo) is decoded, mixed to mono and resampled to 16-bit PCM at no
 * more than 16 kHz — a tenth of a CD-quality stereo file, so a long voicemail stays under the
 * upload limit — and a recording longer than `maxSeconds` (or larger than `maxBytes`) is cut into
 * parts at the quietest moment near each boundary, so no word is split. The compressed formats the
 * provider takes (MP3, M4A, Ogg, FLAC, WebM) go as they are when within the limit. Anything else
 * cannot be transcribed: `SttFailedError` (600002).
 */
export async function prepareAudio(bytes: Uint8Array, opts: PrepareOptions): Promise<AudioPart[]> {
  const type = await (await import('file-type')).fileTypeFromBuffer(bytes).catch(() => undefined);
  if (type?.ext === 'wav' || isRiffWave(bytes)) return wavParts(bytes, opts);
  const mime = type && passThrough[type.ext];
  if (!type || !mime)
    throw new SttFailedError(`a recording of type ${type?.mime ?? 'unknown'} is not supported`);
  if (bytes.byteLength > opts.maxBytes - envelopeBytes)
    throw new SttFailedError(
      `a ${type.ext} recording of ${bytes.byteLength} bytes is over the provider's limit and cannot be cut`,
    );
  return [{ bytes, mime, fileName: `audio.${type.ext}` }];
}

const isRiffWave = (b: Uint8Array) =>
  b.byteLength >= 12 &&
  String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!) === 'RIFF' &&
  String.fromCharCode(b[8]!, b[9]!, b[10]!, b[11]!) === 'WAVE';

/** A WAV decoded to mono 16-bit samples at no more than 16 kHz. */
export function decodeWav(bytes: Uint8Array): { samples: Int16Array; rate: number } {
  let wav: InstanceType<typeof wavefile.WaveFile>;
  try {
    wav = new (lazy.wavefile().WaveFile)(bytes);
    const depth = wav.bitDepth;
    if (depth === '8m') wav.fromMuLaw('16');
    else if (depth === '8a') wav.fromALaw('16');
    else if (depth === '4') wav.fromIMAADPCM('16');
    else if (depth !== '16') wav.toBitDepth('16');
  } catch (err) {
    throw new SttFailedError(`the WAV recording cannot be read: ${(err as Error).message}`);
  }
  const fmt = wav.fmt as { numChannels: number; sampleRate: number };
  const channels = fmt.numChannels;
  const raw = wav.getSamples(false) as unknown as Float64Array | Float64Array[];
  const perChannel = channels > 1 ? (raw as Float64Array[]) : [raw as Float64Array];
  const length = perChannel[0]?.length ?? 0;
  const mono = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (const ch of perChannel) sum += ch[i]!;
    mono[i] = Math.max(-32768, Math.min(32767, Math.round(sum / perChannel.length)));
  }
  if (fmt.sampleRate <= targetRate) return { samples: mono, rate: fmt.sampleRate };
  const resampled = new (lazy.wavefile().WaveFile)();
  resampled.fromScratch(1, fmt.sampleRate, '16', mono);
  resampled.toSampleRate(targetRate);
  return { samples: Int16Array.from(resampled.getSamples() as unknown as Float64Array), rate: targetRate };
}

/** A mono 16-bit PCM WAV file. */
export function encodeWav(samples: Int16Array, rate: number): Uint8Array {
  const wav = new (lazy.wavefile().WaveFile)();
  wav.fromScratch(1, rate, '16', samples);
  return wav.toBuffer();
}

/**
 * Where to cut: the quietest 20 ms frame in the last tenth (at most 5 s) before `end`, so a part
 * ends in a pause rather than in a word.
 */
export function quietCut(samples: Int16Array, start: number, end: number, rate: number): number {
  const frame = Math.max(1, Math.round(rate / 50));
  const look = Math.min(Math.floor((end - start) / 10), rate * 5);
  let best = end;
  let bestEnergy = Infinity;
  for (let at = end - frame; at >= end - look && at > start; at -= frame) {
    let energy = 0;
    for (let i = at; i < at + frame; i++) energy += samples[i]! * samples[i]!;
    if (energy < bestEnergy) {
      bestEnergy = energy;
      best = at + Math.floor(frame / 2);
    }
  }
  return best;
}

function wavParts(bytes: Uint8Array, opts: PrepareOptions): AudioPart[] {
  const { samples, rate } = decodeWav(bytes);
  if (samples.length === 0) throw new SttFailedError('the recording is empty');
  const bySize = Math.floor((opts.maxBytes - envelopeBytes - 44) / 2);
  const most = Math.max(rate, Math.min(opts.maxSeconds * rate, bySize));
  const parts: AudioPart[] = [];
  for (let start = 0; start < samples.length;) {
    const end =
      samples.length - start <= most ? samples.length : quietCut(samples, start, start + most, rate);
    const part = samples.subarray(start, end);
    parts.push({
      bytes: encodeWav(part, rate),
      mime: 'audio/wav',
      fileName: parts.length ? `audio-${parts.length + 1}.wav` : 'audio.wav',
      seconds: part.length / rate,
    });
    start = end;
  }
  return parts;
}
