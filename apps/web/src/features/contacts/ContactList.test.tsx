import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { constants } from '@numa/contract';
import '../../lib/i18n';
import { ContactList, HEADER_HEIGHT } from './ContactList';
import { sortContacts, toContactView, toRows } from './logic';
import { preparePinyin } from './pinyin';

const surnames = ['王', '李', '张', '刘', '陈', 'Smith', 'Jones', 'Garcia', 'Müller', '123'];

function makeBook(n: number) {
  const list = Array.from({ length: n }, (_, i) =>
    toContactView(
      `c${i}`,
      {
        name: `${surnames[i % surnames.length]}${i}`,
        phoneList: [{ phone: `1415${String(i).padStart(7, '0')}`, telCode: '1', tag: 'Mobile' }],
        email: `p${i}@example.com`,
        companyName: '',
        note: '',
      },
      i,
    ),
  );
  return toRows(sortContacts(list));
}

const noop = () => {};

beforeAll(() => preparePinyin(surnames));

// jsdom has no layout: give the list's scroller the size of a desktop viewport
beforeAll(() => {
  const size = (prop: 'clientHeight' | 'clientWidth', value: number) =>
    Object.defineProperty(HTMLElement.prototype, prop, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('contact-scroller') ? value : 0;
      },
    });
  size('clientHeight', 620);
  size('clientWidth', 1000);
});
afterAll(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
});

describe('virtual contact list', () => {
  it('keeps 10,000 contacts to the rows in view', () => {
    const t0 = performance.now();
    const rows = makeBook(10_000);
    const built = performance.now() - t0;
    const headers = rows.filter((r) => r.kind === 'header').length;

    const r0 = performance.now();
    render(
      <div style={{ height: 620 }}>
        <ContactList
          rows={rows}
          selected={new Set()}
          selecting={false}
          activeId={null}
          onToggle={noop}
          onOpen={noop}
          onEdit={noop}
          onDelete={noop}
        />
      </div>,
    );
    const rendered = performance.now() - r0;

    const list = screen.getByTestId('contact-list');
    const items = within(list).getAllByRole('listitem');
    // 620 px shows 10 rows of 62; with the overscan of 6 the page holds no more than a screenful and a bit
    expect(items.length).toBeGreaterThanOrEqual(10);
    expect(items.length).toBeLessThanOrEqual(24);
    // the canvas is as tall as the whole book, so the scrollbar is true
    const canvas = list.firstElementChild as HTMLElement;
    expect(canvas.style.height).toBe(
      `${(rows.length - headers) * constants.contactRowHeight + headers * HEADER_HEIGHT}px`,
    );
    console.warn(
      `10,000 contacts: rows built in ${built.toFixed(0)} ms, first render ${rendered.toFixed(0)} ms, ${items.length} rows in the page`,
    );
  });

  it('renders the rows at the scroll position and only those', async () => {
    const rows = makeBook(10_000);
    render(
      <ContactList
        rows={rows}
        selected={new Set()}
        selecting={false}
        activeId={null}
        onToggle={noop}
        onOpen={noop}
        onEdit={noop}
        onDelete={noop}
      />,
    );
    const list = screen.getByTestId('contact-list');
    const firstName = within(list).getAllByTestId('contact-row')[0]!.textContent;
    act(() => {
      list.scrollTop = 5000 * constants.contactRowHeight;
      fireEvent.scroll(list);
    });
    // the list re-renders at the new position when the virtualiser has read the scroll (polled, with
    // a deadline, not a fixed wait)
    await waitFor(() =>
      expect(within(list).getAllByTestId('contact-row')[0]!.textContent).not.toBe(firstName),
    );
    expect(within(list).getAllByRole('listitem').length).toBeLessThanOrEqual(24);
  });

  it('opens a row on click and toggles its checkbox without opening it', () => {
    const rows = makeBook(3);
    const onOpen = vi.fn();
    const onToggle = vi.fn();
    render(
      <ContactList
        rows={rows}
        selected={new Set()}
        selecting={false}
        activeId={null}
        onToggle={onToggle}
        onOpen={onOpen}
        onEdit={noop}
        onDelete={noop}
      />,
    );
    const [row] = screen.getAllByTestId('contact-row');
    fireEvent.click(row!.querySelector('.contact-email')!);
    expect(onOpen).toHaveBeenCalledTimes(1);
    fireEvent.click(within(row!).getByRole('checkbox'));
    expect(onToggle).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});
