import svgCaptcha from 'svg-captcha';
import { constants } from '@numa/contract';
import type { Database } from '../db';
import { captchasRepo } from '../repositories/codes';

export interface CaptchaImage {
  captchaId: string;
  svg: string;
}

/** Graphic captchas (svg-captcha). Answers are kept in the database so any server can check them. */
export function createCaptchaService(db: Database) {
  const draw = async (captchaId: string): Promise<CaptchaImage> => {
    const { data, text } = svgCaptcha.create({
      size: 4,
      ignoreChars: '0oO1lIi',
      noise: 2,
      color: true,
      background: '#f4f4f5',
      width: 120,
      height: 44,
    });
    await captchasRepo.put(db, captchaId, text.toLowerCase(), constants.captchaTtlMs);
    return { captchaId, svg: data };
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
      const stored = await captchasRepo.take(db, captchaId);
      return !!stored && !stored.expired && stored.answer === answer.trim().toLowerCase();
    },

    /** The answer, for the dev route only. */
    async answer(captchaId: string): Promise<string | null> {
      return (await captchasRepo.get(db, captchaId))?.answer ?? null;
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
