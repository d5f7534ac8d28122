import { accountPanels, visibleTabs, type AccountPanel, type RailTab } from '@numa/contract';
import { brand } from '../lib/config';

/** The rail tabs of this brand (spec 000 §2 Rail tabs). */
export const tabs: RailTab[] = visibleTabs(brand);
export const firstTab = (): RailTab => tabs[0] ?? 'tabAccount';

export interface PanelContext {
  canInvite: boolean;
  canSetInviter: boolean;
  frontPage: boolean;
}

/**
 * The account menu (spec 000 §2 Account tab, spec 001 §2): the brand's panels, recharge hidden on the
 * front page, invite only with canInvite, redeem code only with canSetInviter; and only panels that
 * are built (`available`), so none shows placeholder data.
 */
export function visiblePanels(ctx: PanelContext, available: ReadonlySet<AccountPanel>): AccountPanel[] {
  return accountPanels.filter(
    (p) =>
      available.has(p) &&
      !brand.hiddenAccountPanels.includes(p) &&
      !(p === 'credit' && ctx.frontPage) &&
      !(p === 'invite' && !ctx.canInvite) &&
      !(p === 'redeemCode' && !ctx.canSetInviter),
  );
}
