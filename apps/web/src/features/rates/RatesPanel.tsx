import { useMemo, useState } from 'react';
import { Input, Label, SearchField, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type RateType } from '@numa/contract';
import { LoadFailed, Loading } from '../../components/Spinner';
import { brand } from '../../lib/config';
import { money } from '../../lib/money';
import '../../components/MonthTabs.css';
import { useRates } from './api/rates';
import './rates.css';

/** The tabs (spec 001 §2 Rates page): cloudnumber shows three, Receive Call first and chosen. */
const tabsOf = (): RateType[] =>
  brand.id === 'cloudnumber' ? ['receive', 'sms', 'number'] : ['call', 'receive', 'sms', 'number'];

/** Rates (spec 001 §2): four tabs, every country with its rate, search by country. */
export default function RatesPanel() {
  const { t } = useTranslation();
  const tabs = tabsOf();
  const [tab, setTab] = useState<RateType>(tabs[0]!);
  const [search, setSearch] = useState('');
  return (
    <section className="panel rates-panel" aria-labelledby="rates-title">
      <h2 id="rates-title">{t('rates.title')}</h2>
      <SearchField className="field rates-search" value={search} onChange={setSearch}>
        <Label className="field-label">{t('rates.search')}</Label>
        <Input className="input" placeholder={t('rates.searchPlaceholder')} />
      </SearchField>
      <Tabs selectedKey={tab} onSelectionChange={(k) => setTab(k as RateType)}>
        <TabList className="month-tab-list rates-tabs" aria-label={t('rates.title')}>
          {tabs.map((k) => (
            <Tab key={k} id={k} className="month-tab">
              {t(`rates.tabs.${k}`)}
            </Tab>
          ))}
        </TabList>
        {tabs.map((k) => (
          <TabPanel key={k} id={k}>
            {k === tab && <RateTable rateType={k} search={search} />}
          </TabPanel>
        ))}
      </Tabs>
    </section>
  );
}

function RateTable({ rateType, search }: { rateType: RateType; search: string }) {
  const { t } = useTranslation();
  const rates = useRates(rateType);
  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = rates.data ?? [];
    return q
      ? list.filter(
          (r) => r.description.toLowerCase().includes(q) || r.countryCode.startsWith(q.replace(/^\+/, '')),
        )
      : list;
  }, [rates.data, search]);
  if (rates.isPending) return <Loading label={t('app.loading')} />;
  if (rates.isError) return <LoadFailed onRetry={() => rates.refetch()} />;
  const unit = t(`rates.units.${rateType}`);
  return rows.length === 0 ? (
    <p className="muted rates-empty">{t('rates.none')}</p>
  ) : (
    <div className="rates-scroll">
      <table className="rates-table">
        <thead>
          <tr>
            <th scope="col">{t('rates.country')}</th>
            <th scope="col">{t('rates.code')}</th>
            <th scope="col">{rateType === 'call' ? t('rates.commonLine') : t('rates.rate')}</th>
            {rateType === 'call' && <th scope="col">{t('rates.economicLine')}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.countryCode}-${r.description}`}>
              <th scope="row">{r.description}</th>
              <td>+{r.countryCode}</td>
              <td>
                {money(r.commonLineRate)} <span className="muted">{unit}</span>
              </td>
              {rateType === 'call' && (
                <td>
                  {r.economicLineRate === null ? (
                    '–'
                  ) : (
                    <>
                      {money(r.economicLineRate)} <span className="muted">{unit}</span>
                    </>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
