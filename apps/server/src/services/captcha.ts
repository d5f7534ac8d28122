import { constants, type CaptchaImage } from '@numa/contract';
import type { Database } from '../db';
import { randomCaptchaText, renderCaptcha } from '../lib/captcha-image';
import { captchasRepo } from '../repositories/captchas';
import type { PowService } from './pow';

export type { CaptchaImage };

/**
 * Graphic captchas: a raster picture (lib/captcha-image) and the proof-of-work challenge that goes
 * with it (services/pow). Answers are kept in the database so any server can check them.
 */
export function createCaptchaService(db: Database, pow: PowService) {
  const draw = async (captchaId: string): Promise<CaptchaImage> => {
    const text = randomCaptchaText();
    const [picture, challenge] = await Promise.all([renderCaptcha(text), pow.challenge(captchaId)]);
    await captchasRepo.put(db.q, captchaId, text.toLowerCase(), constants.captchaTtlMs);
    return {
      captchaId,
      image: `data:${picture.mime};base64,${picture.bytes.toString('base64')}`,
      width: picture.width,
      height: picture.height,
      pow: challenge,
    };
  };

  return {
    /** A fresh captcha for the id (genCaptcha, and after every check). */
    draw,

    /** The captcha call: a new drawing too; an old image cannot be re-rendered from its answer. */
    async current(captchaId: string): Promise<CaptchaImage> {
      return draw(captchaId);
    },

    /** Checks an answer once: the captcha is spent whatever the outcome. */
    async check(captchaId: string, answer: string): Promise<boolean> {
      const stored = await captchasRepo.take(db.q, captchaId);
      return !!stored && !stored.expired && stored.answer === answer.trim().toLowerCase();
    },

    /** The answer, for the dev route only. */
    async answer(captchaId: string): Promise<string | null> {
      return (await captchasRepo.get(db.q, captchaId))?.answer ?? null;
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
