import { describe, expect, it } from 'vitest';
import { accountPanels, brands, visibleTabs } from '@numa/contract';
import { visiblePanels } from './visibility';

const all = new Set(accountPanels);

describe('account menu visibility (spec 000 §2, §6)', () => {
  it('follows canInvite, canSetInviter and the front page', () => {
    const signed = visiblePanels({ canInvite: true, canSetInviter: true, frontPage: false }, all);
    expect(signed).toContain('invite');
    expect(signed).toContain('redeemCode');
    expect(signed).toContain('credit');
    const flagsOff = visiblePanels({ canInvite: false, canSetInviter: false, frontPage: true }, all);
    expect(flagsOff).not.toContain('invite');
    expect(flagsOff).not.toContain('redeemCode');
    expect(flagsOff).not.toContain('credit');
  });

  it('shows only the panels that are built', () => {
    expect(
      visiblePanels({ canInvite: true, canSetInviter: true, frontPage: false }, new Set(['profile'])),
    ).toEqual(['profile']);
  });

  it('the numa host hides the verification-brand panels', () => {
    const panels = visiblePanels({ canInvite: true, canSetInviter: true, frontPage: false }, all);
    expect(panels).not.toContain('codeNumbers');
    expect(panels).toContain('rates');
  });

  it('brand tab rules', () => {
    expect(visibleTabs(brands.jiema)).toEqual(['verification', 'tabAccount']);
    expect(visibleTabs(brands.cloudnumber)).toEqual(['chats', 'numbers', 'tabAccount']);
    expect(visibleTabs(brands.numa)).toHaveLength(5);
  });
});
