import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { CodeInput } from './CodeInput';

function Harness({ onComplete }: { onComplete: (v: string) => void }) {
  const [v, setV] = useState('');
  return (
    <I18nextProvider i18n={i18n}>
      <CodeInput length={4} value={v} onChange={setV} onComplete={onComplete} label="Verification code" />
    </I18nextProvider>
  );
}

describe('CodeInput: one box per digit', () => {
  it('moves on as digits are typed, ignores letters, completes at the last box', async () => {
    void i18n.changeLanguage('en');
    const done = vi.fn();
    render(<Harness onComplete={done} />);
    const boxes = screen.getAllByRole('textbox');
    expect(boxes).toHaveLength(4);
    expect(document.activeElement).toBe(boxes[0]);
    await userEvent.keyboard('1a234');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['1', '2', '3', '4']);
    expect(done).toHaveBeenCalledWith('1234');
  });

  it('Backspace on an empty box goes back and clears', async () => {
    render(<Harness onComplete={() => {}} />);
    await userEvent.keyboard('12');
    await userEvent.keyboard('{Backspace}');
    const boxes = screen.getAllByRole('textbox') as HTMLInputElement[];
    expect(boxes[1]!.value).toBe('');
    expect(document.activeElement).toBe(boxes[1]);
  });

  it('fills every box from a paste', async () => {
    const done = vi.fn();
    render(<Harness onComplete={done} />);
    await userEvent.paste('98-76');
    expect(done).toHaveBeenCalledWith('9876');
  });
});
