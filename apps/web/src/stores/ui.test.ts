import { describe, expect, it } from 'vitest';
import { parsePath, pathOf } from './ui';

describe('the tab and panel in the path', () => {
  it('reads a tab, an account panel, and our public code page', () => {
    expect(parsePath('/chats')).toEqual({ tab: 'chats', panel: null });
    expect(parsePath('/account/codeHistory')).toEqual({ tab: 'tabAccount', panel: 'codeHistory' });
    expect(parsePath('/receive/telegram/US')).toEqual({ tab: 'verification', panel: null });
    expect(pathOf('tabAccount', 'codeNumbers')).toBe('/account/codeNumbers');
  });

  it("opens the verification numbers' panels by the spec's old names too (links saved before)", () => {
    expect(parsePath('/account/numberManagement')).toEqual({ tab: 'tabAccount', panel: 'codeNumbers' });
    expect(parsePath('/account/subscriptionHistory')).toEqual({ tab: 'tabAccount', panel: 'codeHistory' });
    expect(parsePath('/account/nothing')).toEqual({ tab: 'tabAccount', panel: null });
  });
});
