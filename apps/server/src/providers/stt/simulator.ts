import { SttFailedError, type SttPort, type SttRequest } from './port';

/**
 * The built-in speech-to-text (the default, STT=simulator). It "hears" what the simulated carrier
 * recorded: the simulated voicemail is a WAV whose LIST/INFO `ICMT` chunk holds the caller's words
 * (see `simulatedRecording`). Audio without them (any other recording, silence, a format it does
 * not read) cannot be transcribed: 600002, as a real provider answers for unintelligible audio.
 */
export class SimulatedSpeechToText implements SttPort {
  readonly name = 'simulator';
  async transcribe(request: SttRequest): Promise<string> {
    const words = wavComment(request.bytes);
    if (!words?.trim()) throw new SttFailedError('no speech found in the recording');
    return words.trim();
  }
}

/** The ICMT text of a WAV's LIST/INFO chunk, or null. */
export function wavComment(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE')
    return null;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'LIST' && b.toString('latin1', at + 8, at + 12) === 'INFO') {
      for (let sub = at + 12; sub + 8 <= Math.min(b.length, at + 8 + size);) {
        const sid = b.toString('latin1', sub, sub + 4);
        const ssize = b.readUInt32LE(sub + 4);
        if (sid === 'ICMT') return b.toString('utf8', sub + 8, sub + 8 + ssize).replace(/\0+$/, '');
        sub += 8 + ssize + (ssize % 2);
      }
    }
    at += 8 + size + (size % 2);
  }
  return null;
}
