import { SttUnavailableError, type SttPort } from './port';

/**
 * The default: no speech-to-text provider is configured. Every request is answered with 600000 (the
 * spec's "temporarily unavailable" message); no transcript is ever made up.
 */
export class NoSpeechToText implements SttPort {
  readonly name = 'none';
  async transcribe(): Promise<string> {
    throw new SttUnavailableError('no speech-to-text provider is configured');
  }
}
