import type { Need, ProviderKind } from '../kind';

/** Twilio's account variables (the carrier and the number supply share them). */
export const twilioAccountNeeds: readonly Need[] = [
  { name: 'TWILIO_ACCOUNT_SID', does: 'the Twilio account (AC…): REST calls and webhook signatures' },
  { name: 'TWILIO_AUTH_TOKEN', does: "the account's auth token: signs our calls, checks every webhook" },
  {
    name: 'TWILIO_WEBHOOK_BASE_URL',
    does: 'the public https URL Twilio reaches this server at (webhooks, MMS pictures)',
  },
];

/** The carrier: no product without it, so it cannot be switched off. */
export const carrierKind: ProviderKind = {
  title: 'SMS/MMS carrier',
  selector: 'CARRIER',
  does: 'sends and receives every text, picture, call and SMS code',
  simulator: 'simulator',
  real: [
    {
      value: 'twilio',
      needs: [
        ...twilioAccountNeeds,
        {
          name: 'TWILIO_MESSAGING_SERVICE_SID',
          does: 'the Messaging Service (MG…) that sends sign-in and verification codes by SMS',
        },
      ],
    },
  ],
};
