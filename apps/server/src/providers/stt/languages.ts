/**
 * The spec's speech-to-text locales (contract `sttLanguageTags`) in the words of an OpenAI-compatible
 * transcription endpoint (`/v1/audio/transcriptions`: OpenAI's whisper-1 and gpt-4o transcribe
 * models, whisper.cpp's and faster-whisper's servers, Groq, LocalAI …), whose `language` is the
 * ISO 639-1 code of the languages Whisper was trained on. A locale maps by its language subtag; the
 * region only chooses the script hint for Chinese. `auto` sends no language: the provider detects it.
 */

/** Whisper's languages (ISO 639-1; `haw` and `jw` as Whisper names Hawaiian and Javanese). */
export const whisperLanguages: ReadonlySet<string> = new Set(
  (
    'en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur ' +
    'hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si ' +
    'km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ' +
    'ha ba jw su'
  ).split(' '),
);

/** BCP 47 language subtags whose Whisper code differs. */
const aliases: Record<string, string> = {
  cmn: 'zh', // Mandarin
  yue: 'zh', // Cantonese: written Chinese in traditional script (every server knows zh; few know yue)
  fil: 'tl', // Filipino → Tagalog
  jv: 'jw', // Javanese
  nb: 'no', // Norwegian Bokmål
  iw: 'he', // the old tag of Hebrew
  in: 'id', // the old tag of Indonesian
};

/** The script hints Whisper follows for Chinese (it otherwise mixes simplified and traditional). */
const chinesePrompt = { simplified: '以下是普通话的句子。', traditional: '以下是普通話的句子。' } as const;

export interface ProviderLanguage {
  /** The `language` to send; null: none (the provider detects it). */
  code: string | null;
  /** A prompt that keeps the output in the locale's script (Chinese only). */
  prompt?: string;
}

/**
 * A locale in the provider's words, or null when the provider does not transcribe that language
 * (`zu-ZA`: Whisper has no Zulu).
 */
export function providerLanguage(tag: string): ProviderLanguage | null {
  if (tag === 'auto') return { code: null };
  const subtags = tag.split('-');
  const primary = subtags[0]!.toLowerCase();
  const code = aliases[primary] ?? primary;
  if (!whisperLanguages.has(code)) return null;
  if (code !== 'zh') return { code };
  const rest = subtags.slice(1).map((s) => s.toLowerCase());
  const traditional =
    primary === 'yue' || rest.includes('hant') || rest.some((s) => s === 'tw' || s === 'hk' || s === 'mo');
  return { code, prompt: traditional ? chinesePrompt.traditional : chinesePrompt.simplified };
}
