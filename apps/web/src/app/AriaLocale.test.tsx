import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { DismissButton } from 'react-aria';
import { useLocale } from 'react-aria-components';
import { I18nextProvider } from 'react-i18next';
import { i18n, setLang } from '../lib/i18n';
import { AriaLocale } from './App';

function Probe() {
  const { locale } = useLocale();
  return (
    <>
      <span data-testid="locale">{locale}</span>
      <DismissButton onDismiss={() => {}} />
    </>
  );
}

describe("react-aria's texts follow the app's language, not the browser's (issue 13 §3.11)", () => {
  it('names its hidden buttons in Chinese when the app is in Chinese', async () => {
    await setLang('zh');
    const { unmount } = render(
      <I18nextProvider i18n={i18n}>
        <AriaLocale>
          <Probe />
        </AriaLocale>
      </I18nextProvider>,
    );
    expect(screen.getByTestId('locale').textContent).toBe('zh-CN');
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe('取消');
    unmount();
    await setLang('en');
    render(
      <I18nextProvider i18n={i18n}>
        <AriaLocale>
          <Probe />
        </AriaLocale>
      </I18nextProvider>,
    );
    expect(screen.getByTestId('locale').textContent).toBe('en-US');
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe('Dismiss');
  });
});
