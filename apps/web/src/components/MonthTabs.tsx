import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import './MonthTabs.css';

/** The current UTC month and the ones before it, as YYYY-MM (spec 001 §9 Histories), newest first. */
export function recentMonths(count: number = constants.historyMonthTabs, now = Date.now()): string[] {
  const d = new Date(now);
  return Array.from({ length: count }, (_, i) => {
    const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1));
    return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

/**
 * Month tabs (spec 001 §4): one tab per month; changing the tab shows that month's list, which starts
 * over (each month is its own query). Shared by the history panels (Call history uses it too).
 */
export function MonthTabs({
  label,
  value,
  onChange,
  months = recentMonths(),
  children,
}: {
  label: string;
  value: string;
  onChange: (ym: string) => void;
  months?: string[];
  children: ReactNode;
}) {
  const { i18n } = useTranslation();
  const name = (ym: string) => {
    const [y, m] = ym.split('-').map(Number) as [number, number];
    return new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en', {
      year: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(Date.UTC(y, m - 1, 1)));
  };
  return (
    <Tabs className="month-tabs" selectedKey={value} onSelectionChange={(k) => onChange(String(k))}>
      <TabList className="month-tab-list" aria-label={label}>
        {months.map((ym) => (
          <Tab key={ym} id={ym} className="month-tab">
            {name(ym)}
          </Tab>
        ))}
      </TabList>
      {months.map((ym) => (
        <TabPanel key={ym} id={ym} className="month-panel">
          {ym === value ? children : null}
        </TabPanel>
      ))}
    </Tabs>
  );
}
