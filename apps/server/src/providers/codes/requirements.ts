import type { ProviderKind } from '../kind';

/** Where the numbers that receive other apps' codes come from. */
export const codeSupplierKind: ProviderKind = {
  title: 'Verification-code supplier',
  selector: 'CODE_SUPPLIER',
  does: "lends the numbers that receive other apps' codes",
  simulator: 'simulator',
  real: [
    {
      value: 'smsactivate',
      needs: [
        { name: 'CODE_SUPPLIER_API_KEY', does: "the supplier's API key (CODE_SUPPLIER_URL: its address)" },
        {
          name: 'CODE_SUPPLIER_PRICE_RATES',
          does: "the supplier's units per unit of each brand currency (e.g. usd=90,cny=12): a number is never bought above the fee the user was quoted",
        },
      ],
      note: 'CODE_SUPPLIER_FAILOVER names further suppliers asked in turn',
    },
    {
      value: '5sim',
      needs: [
        { name: 'FIVESIM_API_KEY', does: "5sim's API token (bearer; FIVESIM_URL: its address)" },
        {
          name: 'FIVESIM_PRICE_RATES',
          does: "5sim's units per unit of each brand currency (e.g. usd=90): never bought above the user's fee",
        },
      ],
      note: 'CODE_SUPPLIER_FAILOVER names further suppliers asked in turn',
    },
  ],
  off: {
    value: 'none',
    effect:
      'no outside supplier: codes arrive only on our own carrier numbers put in the pool (`codes pool-add --supplier carrier`); with none there, a lock answers 500000 "No numbers available"',
  },
};
