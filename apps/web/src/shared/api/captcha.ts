import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../lib/api';

/** A captcha drawing for an id, with its proof-of-work challenge. */
export const drawCaptcha = (captchaId: string) => call(endpoints.genCaptcha, { captchaId }, { silent: true });
