import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { fetchAccountInfo } from '../../../shared/api/account';

/** Where a code for the account's phone or e-mail goes. */
export type VerifyAddress = { telcode: string; phone: string } | { email: string };

/**
 * Asks for a code without a captcha: the server never sends then, but tells the resend wait still
 * running (100015) or asks for the captcha (100028 / 100010).
 */
export const askVerifyCode = (to: VerifyAddress) =>
  'email' in to
    ? call(endpoints.requestToVerifyEmail, to, { silent: true })
    : call(endpoints.getVerifyCode, to, { silent: true });

/**
 * Sends the code through the captcha (confirmCaptcha with nextApi): the verification's id, the code's
 * length and the resend wait.
 */
export async function sendVerifyCode(
  to: VerifyAddress,
  captcha: { captchaId: string; inputCaptcha: string; pow: string | undefined },
) {
  const nextApi = 'email' in to ? ('/web/requestToVerifyEmail' as const) : ('/web/getVerifyCode' as const);
  const { pow, ...answer } = captcha;
  const raw = await call(
    endpoints.confirmCaptcha,
    { ...answer, nextApi, ...(pow ? { pow } : {}), ...to },
    { silent: true },
  );
  const res = endpoints.getVerifyCode.output.safeParse(raw);
  if (!res.success) throw new Error('confirmCaptcha answered without a verification');
  return res.data;
}

/** Checks the code typed for a verification. */
export const checkVerifyCode = (to: VerifyAddress, verifyid: string, activationcode: string) =>
  call(
    'email' in to ? endpoints.validateCodeForEmail : endpoints.validateCode,
    { verifyid, activationcode },
    { silent: true },
  );

/**
 * Gives the account the verified address: set for an account without this kind of address, update
 * for one that has it (contract: verify.ts).
 */
export async function saveVerifiedAddress(to: VerifyAddress, verifyid: string) {
  const account = await fetchAccountInfo();
  if ('email' in to) {
    await call(
      account.email ? endpoints.updateEmail : endpoints.setEmailForAccount,
      { email: to.email, verifyid },
      { silent: true },
    );
  } else {
    await call(
      account.phone ? endpoints.updatePhone : endpoints.setPhoneForAccount,
      { ...to, verifyid },
      { silent: true },
    );
  }
}
