import type { ProviderKind } from '../kind';

/** Outbound e-mail. */
export const mailKind: ProviderKind = {
  title: 'E-mail',
  selector: 'MAIL',
  does: 'sends sign-in and verification codes and renewal notices by e-mail',
  simulator: 'simulator',
  implied: (env) => (env.SMTP_URL ? 'smtp' : undefined),
  real: [
    {
      value: 'smtp',
      note: 'implied when SMTP_URL is set',
      needs: [{ name: 'SMTP_URL', does: 'the SMTP server (smtps://user:pass@smtp.example.com:465)' }],
    },
  ],
  off: {
    value: 'none',
    effect:
      'no code goes to an e-mail address (100031 "Codes by email are not available…"): users sign in and prove addresses by phone; renewal notices are not mailed',
  },
};
