import { useCallback, useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import {
  CodeSmsEvent,
  constants,
  socketEvents,
  socketPath,
  type ClientToServerEvents,
  type LockedPhone,
  type ServerToClientEvents,
  type SmsItem,
} from '@numa/contract';
import { isApiError } from '../../lib/api';
import { currentLanguageCode } from '../../lib/i18n';
import { useSession } from '../../stores/session';
import { refreshBalance } from '../../shared/api/account';
import { lockCodeNumber, pollCodeSms } from './api/receive';

/** The tip banner (spec 001 §4): hint → copied (number) → waiting → received → copied (code). */
export type TipState = 'hint' | 'numberCopied' | 'waiting' | 'received' | 'codeCopied';

export interface Receiving {
  lock: LockedPhone;
  /** The country it was locked in (ISO), for 'try another number'. */
  country: string;
  /** Polls left (180 down to 0, one every 5 s). */
  counter: number;
  sms: SmsItem[];
  /** The window ended (counter 0, 100008, or Done). */
  ended: boolean;
}

const merge = (a: SmsItem[], b: SmsItem[]) => {
  const byId = new Map(a.map((s) => [s.smsId, s]));
  for (const s of b) byId.set(s.smsId, s);
  return [...byId.values()].sort((x, y) => y.date - x.date);
};

/**
 * The receive-code flow (spec 001 §4): lock a number, then poll every 5 s with a counter of 180
 * (each poll decrements it) until it is 0 or the poll answers 100008; a code pushed over the socket
 * shows at once. Done ends the lock on the server (a poll with count 0).
 */
export function useReceive() {
  const [state, setState] = useState<Receiving | null>(null);
  const [tip, setTip] = useState<TipState>('hint');
  const [locking, setLocking] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const socket = useRef<Socket<ServerToClientEvents, ClientToServerEvents> | null>(null);
  const current = useRef<Receiving | null>(null);
  const token = useSession((s) => s.token);

  const update = useCallback((fn: (r: Receiving) => Receiving) => {
    setState((prev) => {
      const next = prev ? fn(prev) : prev;
      current.current = next;
      return next;
    });
  }, []);

  const stopTimers = useCallback(() => {
    window.clearInterval(timer.current);
    timer.current = undefined;
    socket.current?.disconnect();
    socket.current = null;
  }, []);

  const gotSms = useCallback(
    (list: SmsItem[]) => {
      if (!list.length) return;
      update((r) => {
        const sms = merge(r.sms, list);
        if (sms.length > r.sms.length) {
          setTip('received');
          void refreshBalance();
        }
        return { ...r, sms };
      });
    },
    [update],
  );

  const poll = useCallback(async () => {
    const r = current.current;
    if (!r || r.ended) return;
    const count = Math.max(0, r.counter - 1);
    update((x) => ({ ...x, counter: count, ended: count === 0 }));
    try {
      const res = await pollCodeSms(r.lock.app, r.lock.phone, count);
      gotSms(res.smsList);
    } catch (e) {
      if (isApiError(e) && e.retcode === 100008) update((x) => ({ ...x, ended: true }));
    }
    if (count === 0 || current.current?.ended) stopTimers();
  }, [gotSms, stopTimers, update]);

  const begin = useCallback(
    (lock: LockedPhone, country: string) => {
      stopTimers();
      const r: Receiving = { lock, country, counter: constants.codes.pollCounter, sms: [], ended: false };
      current.current = r;
      setState(r);
      setTip('hint');
      timer.current = window.setInterval(() => void poll(), constants.codes.pollIntervalMs);
      if (token) {
        const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(window.location.origin, {
          path: socketPath,
          query: { token, languagecode: currentLanguageCode() },
          transports: ['websocket', 'polling'],
          forceNew: true,
        });
        s.on(socketEvents.codeSms, (raw) => {
          const e = CodeSmsEvent.safeParse(raw);
          const now = current.current;
          if (e.success && now && e.data.app === now.lock.app && e.data.number === now.lock.phone)
            gotSms([e.data.sms]);
        });
        socket.current = s;
      }
    },
    [gotSms, poll, stopTimers, token],
  );

  /** Locks a number (a given one or a fresh one), giving back the current one. Throws the call's error. */
  const lock = useCallback(
    async (p: { app: string; code: string; number?: string | undefined; numberType?: 1 | 2 }) => {
      const prev = current.current;
      setLocking(true);
      try {
        const locked = await lockCodeNumber({
          app: p.app,
          code: p.code,
          numberType: p.numberType ?? 1,
          ...(p.number ? { number: p.number } : {}),
          ...(prev && !prev.ended ? { lastApp: prev.lock.app, lastNumber: prev.lock.phone } : {}),
        });
        begin(locked, p.code);
        return locked;
      } finally {
        setLocking(false);
      }
    },
    [begin],
  );

  /** Done: the lock is given back and the flow ends. */
  const done = useCallback(async () => {
    const r = current.current;
    stopTimers();
    current.current = null;
    setState(null);
    setTip('hint');
    if (r && !r.ended) {
      await pollCodeSms(r.lock.app, r.lock.phone, 0).catch(() => {});
    }
  }, [stopTimers]);

  useEffect(() => () => stopTimers(), [stopTimers]);

  return { state, tip, setTip, locking, lock, done, running: !!state && !state.ended };
}
