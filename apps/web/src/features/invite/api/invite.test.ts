import { describe, expect, it } from 'vitest';
import { constants } from '@numa/contract';
import { referralLink } from './invite';

describe('referral link', () => {
  it("is the brand's site with ?referral=<code>", () => {
    expect(referralLink('https://www.numa.app', 'AB12CD34', constants.referralQueryParam)).toBe(
      'https://www.numa.app/?referral=AB12CD34',
    );
    expect(referralLink('https://www.numa.app/', 'X Y', 'referral')).toBe(
      'https://www.numa.app/?referral=X%20Y',
    );
  });
});
