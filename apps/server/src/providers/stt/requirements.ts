import type { ProviderKind } from '../kind';

/** Speech-to-text: an OpenAI-compatible transcription endpoint, or switched off. */
export const sttKind: ProviderKind = {
  title: 'Speech-to-text',
  selector: 'STT',
  does: 'transcribes voicemail and voice messages',
  simulator: 'simulator',
  real: [
    {
      value: 'openai',
      needs: [
        {
          name: 'STT_API_KEY',
          does: 'the key of an OpenAI-compatible transcription endpoint (STT_API_URL: its address, OpenAI by default; STT_MODEL: the model)',
        },
      ],
    },
  ],
  off: {
    value: 'none',
    effect: 'no transcripts: voicemail arrives without one and speechToText answers 600000',
  },
};
