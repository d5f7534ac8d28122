import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import '../../../lib/i18n';
import { Composer } from './Composer';

function type(text: string) {
  const box = screen.getByRole('textbox', { name: 'Message' });
  box.innerHTML = text;
  fireEvent.input(box);
  return box;
}

describe('Enter while the chat cannot send yet (issue 13 §3.3)', () => {
  it('sends the text once the chat is ready, and says so meanwhile', () => {
    const onSendText = vi.fn(() => true);
    const props = { onSendText, onSendImage: vi.fn(), blockedHint: 'Loading…' };
    const { rerender } = render(<Composer canSend={false} {...props} />);
    const box = type('hello there');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSendText).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Sending as soon as the chat is ready…');
    act(() => rerender(<Composer canSend {...props} blockedHint={undefined} />));
    expect(onSendText).toHaveBeenCalledTimes(1);
    expect(onSendText).toHaveBeenCalledWith('hello there');
    expect(box.innerHTML).toBe('');
    expect(screen.getByRole('status').textContent).toBe('');
    // nothing is sent twice on later renders
    act(() => rerender(<Composer canSend {...props} blockedHint={undefined} />));
    expect(onSendText).toHaveBeenCalledTimes(1);
  });

  it('tells why when only the user can lift the block', () => {
    const onSendText = vi.fn(() => true);
    render(
      <Composer
        canSend={false}
        blockFinal
        blockedHint="Choose a number first"
        onSendText={onSendText}
        onSendImage={vi.fn()}
      />,
    );
    fireEvent.keyDown(type('hi'), { key: 'Enter' });
    expect(onSendText).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Choose a number first');
  });

  it('Send pressed while the chat cannot send yet does what Enter does', () => {
    const onSendText = vi.fn(() => true);
    const props = { onSendText, onSendImage: vi.fn(), blockedHint: 'Loading…' };
    const { rerender } = render(<Composer canSend={false} {...props} />);
    const send = screen.getByRole('button', { name: 'Send' });
    // nothing typed: nothing to send
    expect(send.hasAttribute('disabled')).toBe(true);
    const box = type('from the button');
    expect(send.hasAttribute('disabled')).toBe(false);
    fireEvent.click(send);
    expect(onSendText).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Sending as soon as the chat is ready…');
    act(() => rerender(<Composer canSend {...props} blockedHint={undefined} />));
    expect(onSendText).toHaveBeenCalledTimes(1);
    expect(onSendText).toHaveBeenCalledWith('from the button');
    expect(box.innerHTML).toBe('');
  });
});
