import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, Switch } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { PushDevice } from '@numa/contract/push';
import { LoadFailed, Loading } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { currentLang } from '../../lib/i18n';
import { fetchPublicKey, removeDevice, savePushSubscription, setPreviews, usePushSettings } from './api/push';
import './notifications.css';

const when = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm');

/** What this browser can do: no push at all, notifications blocked, or ready. */
type Support = 'unsupported' | 'denied' | 'ok';
const support = (): Support =>
  !('serviceWorker' in navigator) || !('PushManager' in window) || typeof Notification === 'undefined'
    ? 'unsupported'
    : Notification.permission === 'denied'
      ? 'denied'
      : 'ok';

/** This browser's push subscription (through the app's service worker), if it has one. */
async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

function DeviceRow({ d, onRemoved }: { d: PushDevice; onRemoved: () => void }) {
  const { t } = useTranslation();
  const remove = useMutation({ mutationFn: () => removeDevice(d.id), onSuccess: onRemoved });
  return (
    <li className="push-device">
      <div>
        <strong>{d.device}</strong>
        {d.current && <span className="push-current">{t('notifications.thisDevice')}</span>}
        <div className="muted">
          {t('notifications.added', { date: when(d.createdAt) })}
          {' · '}
          {d.lastSentAt === null
            ? t('notifications.neverSent')
            : t('notifications.lastSent', { date: when(d.lastSentAt) })}
        </div>
      </div>
      <Button
        className="button small"
        onPress={() => remove.mutate()}
        isDisabled={remove.isPending}
        aria-label={t('notifications.turnOffDevice', { device: d.device })}
      >
        {t('notifications.turnOff')}
      </Button>
    </li>
  );
}

/**
 * The Account area's notifications (issue 23 §3): turn push notifications on or off on this device
 * (the browser asks for permission only then, never on load), show or hide message text, and the
 * account's devices with "turn off" for each.
 */
export default function NotificationsPanel() {
  const { t, i18n } = useTranslation();
  const [state] = useState(support);
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [looked, setLooked] = useState(state !== 'ok');
  const [error, setError] = useState<string | null>(null);
  const [blocked, setBlocked] = useState(state === 'denied');

  useEffect(() => {
    if (state !== 'ok') return;
    void currentSubscription()
      .then((s) => setEndpoint(s?.endpoint ?? null))
      .catch(() => setEndpoint(null))
      .finally(() => setLooked(true));
  }, [state]);

  const settings = usePushSettings(endpoint, looked);
  const devices = settings.data?.devices ?? [];
  const mine = devices.find((d) => d.current) ?? null;

  // the language of this device's notifications follows the page's
  useEffect(() => {
    if (!mine || mine.lang === currentLang()) return;
    void currentSubscription().then((s) => s && savePushSubscription(s.toJSON(), mine.previews));
  }, [mine, i18n.language]);

  const turnOn = useMutation({
    mutationFn: async () => {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setBlocked(permission === 'denied');
        throw new Error(t('notifications.permissionRefused'));
      }
      const reg = await navigator.serviceWorker.getRegistration('/');
      if (!reg) throw new Error(t('notifications.noWorker'));
      const sub =
        (await reg.pushManager.getSubscription()) ??
        (await reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: settings.data?.publicKey ?? (await fetchPublicKey()),
        }));
      const device = await savePushSubscription(sub.toJSON(), true);
      setEndpoint(sub.endpoint);
      return device;
    },
    onSuccess: () => setError(null),
    onError: (e) => setError(isApiError(e) ? e.retmsg : e instanceof Error ? e.message : t('errors.generic')),
  });

  const turnOff = useMutation({
    mutationFn: async () => {
      if (mine) await removeDevice(mine.id);
      const sub = await currentSubscription();
      await sub?.unsubscribe();
      setEndpoint(null);
    },
    onSuccess: () => setError(null),
    onError: () => setError(t('errors.generic')),
  });

  const previews = useMutation({
    mutationFn: (on: boolean) => (mine ? setPreviews(mine.id, on) : Promise.resolve()),
  });

  return (
    <section className="panel notifications-panel" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('notifications.title')}</h2>
      <p className="muted">{t('notifications.lead')}</p>

      <section className="push-section" aria-labelledby="push-this-title">
        <h3 id="push-this-title">{t('notifications.thisDeviceTitle')}</h3>
        {state === 'unsupported' ? (
          <p role="status">{t('notifications.unsupported')}</p>
        ) : (
          <>
            {blocked && (
              <p className="banner" role="status">
                {t('notifications.blocked')}
              </p>
            )}
            <Switch
              className="push-switch"
              isSelected={!!mine}
              isDisabled={!looked || settings.isLoading || turnOn.isPending || turnOff.isPending || blocked}
              onChange={(on) => (on ? turnOn.mutate() : turnOff.mutate())}
            >
              <span className="switch-track" aria-hidden="true" />
              {t('notifications.onThisDevice')}
            </Switch>
            <Switch
              className="push-switch"
              isSelected={mine?.previews ?? true}
              isDisabled={!mine || previews.isPending}
              onChange={(on) => previews.mutate(on)}
            >
              <span className="switch-track" aria-hidden="true" />
              {t('notifications.previews')}
            </Switch>
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
          </>
        )}
      </section>

      <section className="push-section" aria-labelledby="push-devices-title">
        <h3 id="push-devices-title">{t('notifications.devicesTitle')}</h3>
        {settings.isError ? (
          <LoadFailed onRetry={() => void settings.refetch()} />
        ) : !looked || settings.isLoading ? (
          <Loading label={t('app.loading')} />
        ) : devices.length === 0 ? (
          <p className="muted">{t('notifications.noDevices')}</p>
        ) : (
          <ul className="push-devices" aria-labelledby="push-devices-title">
            {devices.map((d) => (
              <DeviceRow key={d.id} d={d} onRemoved={() => d.current && setEndpoint(null)} />
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
