import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  CheckboxGroup,
  FieldError,
  Form,
  Input,
  Label,
  Switch,
  Text,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import {
  apiScopes,
  webhookEventTypes,
  type ApiKeyInfo,
  type ApiScope,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@numa/contract/developer';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { brand } from '../../lib/config';
import { currentLang } from '../../lib/i18n';
import {
  createApiKey,
  createWebhook,
  deleteWebhook,
  revokeApiKey,
  sendTestWebhook,
  updateWebhook,
  useApiKeys,
  useDeliveries,
  useWebhookEndpoints,
} from './api/developer';
import './developer.css';

const when = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm');

/** A check box as the panel draws them (react-aria: a real input, its label its name). */
function Choice({ value, children }: { value: string; children: React.ReactNode }) {
  return (
    <Checkbox value={value} className="dev-choice">
      {({ isSelected }) => (
        <>
          <span className="checkbox-box" aria-hidden="true">
            {isSelected ? '✓' : ''}
          </span>
          <span>{children}</span>
        </>
      )}
    </Checkbox>
  );
}

/** Copy, with a word that it went. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      className="button small"
      onPress={async () => setCopied(await copyText(text))}
      aria-label={`${label}${copied ? ` (${t('developer.copied')})` : ''}`}
    >
      {copied ? t('developer.copied') : t('developer.copy')}
    </Button>
  );
}

function KeysSection() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['messages:read', 'messages:send']);
  const [made, setMade] = useState<{ secret: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => createApiKey({ name: name.trim(), scopes: scopes as ApiScope[] }),
    onSuccess: (res) => {
      setMade({ secret: res.secret, name: res.key.name });
      setName('');
      setError(null);
    },
    onError: (e) => setError(isApiError(e) ? e.retmsg : t('errors.generic')),
  });
  const revoke = useMutation({ mutationFn: revokeApiKey, onSettled: () => setConfirming(null) });

  return (
    <section className="dev-section" aria-labelledby="dev-keys-title">
      <h3 id="dev-keys-title">{t('developer.keys.title')}</h3>
      <p className="muted">{t('developer.keys.lead')}</p>
      <Form
        className="dev-form"
        validationBehavior="aria"
        onSubmit={(ev) => {
          ev.preventDefault();
          if (!name.trim() || !scopes.length || create.isPending) return;
          create.mutate();
        }}
      >
        <TextField value={name} onChange={setName} isRequired maxLength={60} className="field">
          <Label>{t('developer.keys.name')}</Label>
          <Input placeholder={t('developer.keys.namePlaceholder')} />
          <FieldError />
        </TextField>
        <CheckboxGroup value={scopes} onChange={setScopes} className="dev-choices" isRequired>
          <Label>{t('developer.keys.scopes')}</Label>
          {apiScopes.map((s) => (
            <Choice key={s} value={s}>
              {t(`developer.scopes.${s.replace(':', '_')}`)}
            </Choice>
          ))}
        </CheckboxGroup>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <Button
          type="submit"
          className="button primary"
          isDisabled={!name.trim() || !scopes.length || create.isPending}
        >
          {create.isPending ? <Spinner size={14} label={t('app.loading')} /> : t('developer.keys.create')}
        </Button>
      </Form>
      {made && (
        <div className="notice dev-secret" role="status">
          <p>
            <strong>{t('developer.keys.madeTitle', { name: made.name })}</strong>{' '}
            {t('developer.keys.madeLead')}
          </p>
          <div className="dev-secret-row">
            <code aria-label={t('developer.keys.secretLabel')}>{made.secret}</code>
            <CopyButton text={made.secret} label={t('developer.keys.copyKey')} />
          </div>
          <Button className="link-button" onPress={() => setMade(null)}>
            {t('developer.done')}
          </Button>
        </div>
      )}
      {keys.isPending ? (
        <Loading label={t('app.loading')} />
      ) : keys.isError ? (
        <LoadFailed onRetry={() => keys.refetch()} />
      ) : keys.data.keys.length === 0 ? (
        <p className="empty-state">{t('developer.keys.empty')}</p>
      ) : (
        <ul className="dev-list" aria-label={t('developer.keys.listLabel')}>
          {keys.data.keys.map((k: ApiKeyInfo) => (
            <li key={k.id} className="dev-item">
              <div className="dev-item-main">
                <strong>{k.name}</strong> <code>{k.prefix}…</code>
                <span className="muted dev-meta">
                  {k.scopes.map((s) => t(`developer.scopes.${s.replace(':', '_')}`)).join(' · ')}
                </span>
                <span className="muted dev-meta">
                  {k.lastUsedAt
                    ? t('developer.keys.lastUsed', { when: when(k.lastUsedAt) })
                    : t('developer.keys.neverUsed')}
                </span>
              </div>
              {confirming === k.id ? (
                <div className="dev-actions">
                  <Button
                    className="button small danger"
                    onPress={() => revoke.mutate(k.id)}
                    isDisabled={revoke.isPending}
                  >
                    {t('developer.keys.confirmRevoke', { name: k.name })}
                  </Button>
                  <Button className="button small" onPress={() => setConfirming(null)}>
                    {t('developer.cancel')}
                  </Button>
                </div>
              ) : (
                <Button
                  className="button small"
                  onPress={() => setConfirming(k.id)}
                  aria-label={t('developer.keys.revokeNamed', { name: k.name })}
                >
                  {t('developer.keys.revoke')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const log = useDeliveries(endpoint.id, true);
  if (log.isPending) return <Loading label={t('app.loading')} />;
  if (log.isError) return <LoadFailed onRetry={() => log.refetch()} />;
  if (!log.data.deliveries.length) return <p className="empty-state">{t('developer.hooks.noDeliveries')}</p>;
  return (
    <table className="dev-log">
      <caption>{t('developer.hooks.logCaption', { url: endpoint.url })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('developer.hooks.logTime')}</th>
          <th scope="col">{t('developer.hooks.logEvent')}</th>
          <th scope="col">{t('developer.hooks.logStatus')}</th>
          <th scope="col">{t('developer.hooks.logAttempts')}</th>
          <th scope="col">{t('developer.hooks.logError')}</th>
        </tr>
      </thead>
      <tbody>
        {log.data.deliveries.map((d) => (
          <tr key={d.id}>
            <td>{when(d.createdAt)}</td>
            <td>
              <code>{d.type}</code>
            </td>
            <td className={`dev-status ${d.status}`}>
              {t(
                `developer.hooks.status.${d.status === 'pending' && d.attempts === 0 ? 'sending' : d.status}`,
              )}
            </td>
            <td>{d.attempts}</td>
            <td>{d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EndpointItem({ e }: { e: WebhookEndpoint }) {
  const { t } = useTranslation();
  const [showSecret, setShowSecret] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [tested, setTested] = useState(false);
  const test = useMutation({
    mutationFn: () => sendTestWebhook(e.id),
    onSuccess: () => {
      setTested(true);
      setShowLog(true);
    },
  });
  const toggle = useMutation({ mutationFn: (enabled: boolean) => updateWebhook({ id: e.id, enabled }) });
  const remove = useMutation({ mutationFn: () => deleteWebhook(e.id) });
  return (
    <li className="dev-item dev-endpoint">
      <div className="dev-item-main">
        <code className="dev-url">{e.url}</code>
        <span className="muted dev-meta">
          {e.events.map((ev) => t(`developer.events.${ev.replace('.', '_')}`)).join(' · ')}
        </span>
        {!e.enabled && (
          <span className="dev-off" role="note">
            {e.disabledReason === 'failing' ? t('developer.hooks.offFailing') : t('developer.hooks.off')}
          </span>
        )}
        <div className="dev-secret-row">
          <span className="muted">{t('developer.hooks.secret')}</span>
          <code aria-label={t('developer.hooks.secret')}>{showSecret ? e.secret : 'whsec_••••••••••••'}</code>
          <Button className="button small" onPress={() => setShowSecret((v) => !v)}>
            {showSecret ? t('developer.hide') : t('developer.show')}
          </Button>
          {showSecret && <CopyButton text={e.secret} label={t('developer.hooks.copySecret')} />}
        </div>
      </div>
      <div className="dev-actions">
        <Switch
          isSelected={e.enabled}
          onChange={(v) => toggle.mutate(v)}
          className="dev-switch"
          isDisabled={toggle.isPending}
        >
          <span className="switch-track" aria-hidden="true" />
          {t('developer.hooks.enabled')}
        </Switch>
        <Button className="button small" onPress={() => test.mutate()} isDisabled={test.isPending}>
          {t('developer.hooks.test')}
        </Button>
        <Button className="button small" onPress={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {t('developer.hooks.log')}
        </Button>
        <Button className="button small danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
          {t('developer.hooks.delete')}
        </Button>
      </div>
      {tested && (
        <p className="muted" role="status">
          {t('developer.hooks.testSent')}
        </p>
      )}
      {showLog && <Deliveries endpoint={e} />}
    </li>
  );
}

function HooksSection() {
  const { t } = useTranslation();
  const list = useWebhookEndpoints();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['message.received', 'message.status']);
  const [threshold, setThreshold] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const wantsLow = events.includes('balance.low');
  const add = useMutation({
    mutationFn: () =>
      createWebhook({
        url: url.trim(),
        events: events as WebhookEventType[],
        balanceThreshold: wantsLow ? Number(threshold) : null,
      }),
    onSuccess: () => {
      setUrl('');
      setError(null);
    },
    onError: (e) => setError(isApiError(e) ? e.retmsg : t('errors.generic')),
  });
  const thresholdOk =
    !wantsLow || (threshold.trim() !== '' && Number.isFinite(Number(threshold)) && Number(threshold) >= 0);
  return (
    <section className="dev-section" aria-labelledby="dev-hooks-title">
      <h3 id="dev-hooks-title">{t('developer.hooks.title')}</h3>
      <p className="muted">{t('developer.hooks.lead')}</p>
      <Form
        className="dev-form"
        validationBehavior="aria"
        onSubmit={(ev) => {
          ev.preventDefault();
          if (!url.trim() || !events.length || !thresholdOk || add.isPending) return;
          add.mutate();
        }}
      >
        <TextField value={url} onChange={setUrl} isRequired type="url" className="field">
          <Label>{t('developer.hooks.url')}</Label>
          <Input placeholder="https://example.com/numa-events" />
          <Text slot="description" className="muted">
            {t('developer.hooks.urlHint')}
          </Text>
        </TextField>
        <CheckboxGroup value={events} onChange={setEvents} className="dev-choices" isRequired>
          <Label>{t('developer.hooks.events')}</Label>
          {webhookEventTypes.map((ev) => (
            <Choice key={ev} value={ev}>
              {t(`developer.events.${ev.replace('.', '_')}`)}
            </Choice>
          ))}
        </CheckboxGroup>
        {wantsLow && (
          <TextField
            value={threshold}
            onChange={setThreshold}
            inputMode="decimal"
            className="field"
            isInvalid={!thresholdOk}
          >
            <Label>{t('developer.hooks.threshold', { unit: brand.currency.label[currentLang()] })}</Label>
            <Input />
          </TextField>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <Button
          type="submit"
          className="button primary"
          isDisabled={!url.trim() || !events.length || !thresholdOk || add.isPending}
        >
          {add.isPending ? <Spinner size={14} label={t('app.loading')} /> : t('developer.hooks.add')}
        </Button>
      </Form>
      {list.isPending ? (
        <Loading label={t('app.loading')} />
      ) : list.isError ? (
        <LoadFailed onRetry={() => list.refetch()} />
      ) : list.data.endpoints.length === 0 ? (
        <p className="empty-state">{t('developer.hooks.empty')}</p>
      ) : (
        <ul className="dev-list" aria-label={t('developer.hooks.listLabel')}>
          {list.data.endpoints.map((e) => (
            <EndpointItem key={e.id} e={e} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Developer (issue 21): API keys (made with a name and scopes, shown once, revoked) and webhook
 * endpoints (events, signing secret, test event, delivery log, on/off), with links to the API
 * reference and the SMS-Activate-compatible address.
 */
export default function DeveloperPanel() {
  const { t } = useTranslation();
  return (
    <section className="panel developer-panel" aria-labelledby="developer-title">
      <h2 id="developer-title">{t('developer.title')}</h2>
      <p className="muted">
        {t('developer.lead')}{' '}
        <a href="/api/v1/docs" target="_blank" rel="noopener noreferrer">
          {t('developer.reference')}
        </a>
      </p>
      <p className="muted dev-meta">{t('developer.smsActivate', { path: '/stubs/handler_api.php' })}</p>
      <KeysSection />
      <HooksSection />
    </section>
  );
}
