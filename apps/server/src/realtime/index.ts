import fp from 'fastify-plugin';
import { Server, type Socket } from 'socket.io';
import type { Redis } from 'ioredis';
import { lazy } from '../lib/lazy';
import {
  constants,
  endpoints,
  LanguageCode,
  langFromCode,
  retmsg,
  SendPayload,
  SocketQuery,
  socketEvents,
  socketPath,
  type ClientToServerEvents,
  type Lang,
  type ReceiveMessage,
  type Retcode,
  type ServerToClientEvents,
} from '@numa/contract';
import { ViewingEvent, viewingEvent } from '@numa/contract/push';
import { isApiError } from '../lib/errors';
import { originChecker } from '../lib/origins';
import { holdKey } from '../services/limits';
import { toReceiveMessage, type SendResult } from '../services/chats';
import type { KickCode } from '../services/sessions';
import { accountRoom, langRoom, type InterServerEvents, type RealtimeServer, type SocketData } from './hub';

type ChatSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Ack = (answer: { retcode: number; retmsg: string }) => void;

/** A send re-checks its socket's session at most this often. */
const recheckSendsMs = 10_000;

/** The socket.io Redis adapter's channel prefix: `<REDIS_KEY_PREFIX>:socket.io`. */
export const adapterKey = (prefix: string) => `${prefix}:socket.io`;

/**
 * The real-time channel (spec 000 §7) on the app's HTTP server: socket.io at /webchat, the session
 * token in the handshake query (checked like HTTP: same brand rule and session codes), one room per
 * account. `sendMessage` is validated with the contract; a refusal comes back as a failed
 * receiveMessage to the sending socket, a stored message's confirmation to every socket of the
 * account. With REDIS_URL, the Redis adapter joins the rooms of all server processes.
 */
export default fp(
  async (app) => {
    const { sessions, chats, realtime, env, brandOf, limits } = app.deps;
    const { metrics } = app.deps;
    const log = app.log.child({ area: 'realtime' });

    const io: RealtimeServer = new Server(app.server, {
      path: socketPath,
      serveClient: false,
      transports: ['websocket', 'polling'],
      // an MMS file plus the rest of the payload; larger frames are refused by engine.io
      maxHttpBufferSize: constants.mmsMaxBytes + 256 * 1024,
      pingInterval: 20_000,
      pingTimeout: constants.socketTimeoutMs,
      connectTimeout: constants.socketTimeoutMs,
    });

    let pub: Redis | null = null;
    let sub: Redis | null = null;
    if (env.REDIS_URL) {
      pub = new (lazy.ioredis().Redis)(env.REDIS_URL, { connectTimeout: 2000, maxRetriesPerRequest: 2 });
      sub = pub.duplicate();
      for (const c of [pub, sub])
        c.on('error', (err) => log.warn({ err }, 'redis (socket.io adapter) error'));
      io.adapter(
        lazy
          .redisAdapter()
          .createAdapter(pub, sub, { key: adapterKey(env.REDIS_KEY_PREFIX), requestsTimeout: 3000 }),
      );
    }
    realtime.bind(io);
    const originAllowed = originChecker({
      brandHosts: env.BRAND_HOSTS,
      allowedOrigins: env.ALLOWED_ORIGINS,
      trustProxy: env.TRUST_PROXY,
      brandOf,
    });

    io.use((socket, next) => {
      const query = SocketQuery.safeParse(socket.handshake.query);
      const brand = brandOf(socket.handshake.headers.host);
      const givenCode = LanguageCode.safeParse(socket.handshake.query.languagecode);
      const lang: Lang = givenCode.success
        ? langFromCode(givenCode.data)
        : /^zh\b/i.test(socket.handshake.headers['accept-language'] ?? '')
          ? 'zh'
          : 'en';
      const refuse = (code: Retcode, detail?: string) => {
        metrics.socketHandshake(code);
        const text = retmsg(code, lang) + (detail ? ` (${detail})` : '');
        const err = new Error(text) as Error & { data: { retcode: number; retmsg: string } };
        err.data = { retcode: code, retmsg: text };
        next(err);
      };
      const h = socket.handshake.headers;
      if (
        !originAllowed({
          origin: h.origin,
          host: h.host,
          forwardedHost: h['x-forwarded-host'],
          brand: brand.id,
        })
      ) {
        log.info({ origin: h.origin, host: h.host }, 'socket refused: page origin is not one of the brand');
        return refuse(100003, 'origin');
      }
      if (!query.success) {
        // a missing or malformed token is a session matter (100012); anything else is bad input
        const fields = [...new Set(query.error.issues.map((i) => String(i.path[0] ?? 'query')))];
        if (fields.includes('token')) return refuse(100012);
        return refuse(100001, fields.join(', '));
      }
      const token = query.data.token;
      // flood limits before the token is looked up: a flooder's hold, then handshakes per address
      const xff = env.TRUST_PROXY
        ? String(h['x-forwarded-for'] ?? '')
            .split(',')[0]
            ?.trim()
        : '';
      const ip = xff || socket.handshake.address;
      const admit = async () => {
        if (await limits.isHeld(token)) return refuse(100015, 'flooding');
        if (!(await limits.connect(ip)).ok) return refuse(100015);
        let session;
        try {
          session = await sessions.authenticate(token, brand.id);
        } catch (err) {
          if (isApiError(err)) return refuse(err.retcode);
          throw err;
        }
        socket.data = {
          sessionId: session.id,
          accountId: session.accountId,
          brand: brand.id,
          lang,
          checkedAt: 0,
          holdKey: holdKey(token),
          strikes: 0,
        };
        metrics.socketHandshake(0);
        next();
      };
      admit().catch((err: unknown) => {
        log.error({ err }, 'socket authentication failed');
        refuse(100000);
      });
    });

    const kick = (
      socket: ChatSocket | Awaited<ReturnType<RealtimeServer['fetchSockets']>>[number],
      code: KickCode,
    ) => {
      socket.emit(socketEvents.kicked, { retcode: code, retmsg: retmsg(code, socket.data.lang) });
      socket.disconnect(true);
    };

    /** Ends the sockets of this process whose session ended. */
    async function recheck(accountId: number) {
      const sockets = await io.local.in(accountRoom(accountId)).fetchSockets();
      const verdicts = new Map<number, Promise<KickCode | null>>();
      for (const s of sockets) {
        if (!verdicts.has(s.data.sessionId))
          verdicts.set(s.data.sessionId, sessions.kickCode(s.data.sessionId));
        const code = await verdicts.get(s.data.sessionId)!;
        if (code) kick(s, code);
      }
    }

    const onRevoked = ({ accountId, reason }: { accountId: number; reason: string }) => {
      if (reason === 'refreshed') return;
      recheck(accountId).catch((err: unknown) => log.error({ err }, 'rechecking sockets failed'));
      if (pub) io.serverSideEmit('recheck', accountId);
    };
    sessions.events.on('revoked', onRevoked);
    io.on('recheck', (accountId: number) => {
      // the sessions' own channel may come later: what this server remembers of the account goes first
      sessions.forgetHere(accountId);
      recheck(accountId).catch((err: unknown) => log.error({ err }, 'rechecking sockets failed'));
    });

    /** A send refused before anything was stored: only the sending socket hears of it. */
    function refuseSend(
      socket: ChatSocket,
      raw: Record<string, unknown>,
      code: Retcode,
      lang: Lang,
      ack?: Ack,
    ) {
      metrics.socketEvent(socketEvents.sendMessage, code);
      const text = retmsg(code, lang);
      ack?.({ retcode: code, retmsg: text });
      const party = (v: unknown) =>
        typeof v === 'string' ? v.replace(/[^A-Za-z0-9]/g, '').slice(0, 16) : '';
      const smsId =
        typeof raw.smsId === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(raw.smsId) ? raw.smsId : null;
      const from = party(raw.fromNumber);
      const to = party(raw.toNumber);
      // without an smsId (or numbers) the client could not match the failure to its message
      if (!smsId || from.length < 3 || to.length < 3) return;
      const msgType = raw.msgType === 'mms' ? 'mms' : 'sms';
      const message: ReceiveMessage = {
        fromNumber: from,
        toNumber: to,
        fromPhone: from,
        toPhone: to,
        fromTelCode: '',
        toTelCode: '',
        direction: 'out',
        msgType,
        text: typeof raw.text === 'string' ? raw.text.slice(0, constants.smsTextMax) : '',
        media: '',
        smsId,
        time: Date.now(),
        status: constants.messageStatus.failed,
        retmsg: text,
        highlightTarget: '',
        highlightText: '',
        retcode: code,
      };
      socket.emit(socketEvents.receiveMessage, message);
    }

    async function onSend(socket: ChatSocket, payload: unknown, ack?: Ack) {
      const raw = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
      const lang: Lang =
        raw.languagecode === 'zh_cn' || raw.languagecode === 'en'
          ? langFromCode(raw.languagecode)
          : socket.data.lang;
      if (lang !== socket.data.lang) {
        void socket.leave(langRoom(socket.data.accountId, socket.data.lang));
        socket.data.lang = lang;
        void socket.join(langRoom(socket.data.accountId, lang));
      }
      const parsed = SendPayload.safeParse(payload);
      if (!parsed.success) {
        const tooLarge = parsed.error.issues.some(
          (i) => i.path[0] === 'fileBuffer' && /larger than/.test(i.message),
        );
        log.info(
          { issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`) },
          'bad sendMessage',
        );
        return refuseSend(socket, raw, tooLarge ? 100005 : 100001, lang, ack);
      }
      const p = parsed.data;
      if (p.platform !== socket.data.brand) return refuseSend(socket, raw, 100016, lang, ack);
      // Revocations kick at once (sessions' 'revoked' event, on every server); this check catches what
      // happens without an event (an operator suspending the account from another process) within
      // recheckSendsMs.
      if (Date.now() - socket.data.checkedAt > recheckSendsMs) {
        const ended = await sessions.kickCode(socket.data.sessionId);
        if (ended) metrics.socketEvent(socketEvents.sendMessage, ended);
        if (ended) return kick(socket, ended);
        socket.data.checkedAt = Date.now();
      }

      const result: SendResult = await chats.send({ accountId: socket.data.accountId, brand: p.platform }, p);
      if (result.kind === 'refused') return refuseSend(socket, raw, result.retcode, lang, ack);
      ack?.({ retcode: 0, retmsg: '' });
      metrics.socketEvent(socketEvents.sendMessage, 0);
      if (result.kind === 'repeat') {
        // a resend after a reconnect: the confirmation may have gone to the old connection
        if (result.row.status === constants.messageStatus.pending) await chats.resume(result.row);
        else socket.emit(socketEvents.receiveMessage, toReceiveMessage(result.row, lang));
      }
    }

    /**
     * Every event a socket sends passes its own bucket and its account's (services/limits.ts) before
     * anything else, database work included. Over the limit a send fails with 100015 (to this socket
     * only); after SOCKET_FLOOD_STRIKES refusals in a row the socket is disconnected and its token is
     * held off the handshake for SOCKET_FLOOD_HOLD_SECONDS.
     */
    function limitEvents(socket: ChatSocket) {
      socket.use(([event, payload, ack], next) => {
        limits.event(socket.id, socket.data.accountId).then(
          (verdict) => {
            if (verdict.ok) {
              socket.data.strikes = 0;
              return next();
            }
            socket.data.strikes += 1;
            if (event !== socketEvents.sendMessage) metrics.socketEvent(String(event), 100015);
            if (event === socketEvents.sendMessage) {
              const raw = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<
                string,
                unknown
              >;
              refuseSend(
                socket,
                raw,
                100015,
                socket.data.lang,
                typeof ack === 'function' ? (ack as Ack) : undefined,
              );
            }
            if (socket.data.strikes >= limits.settings.floodStrikes && socket.connected) {
              log.warn(
                { accountId: socket.data.accountId, strikes: socket.data.strikes },
                'socket disconnected for flooding',
              );
              metrics.socketFlooder();
              void limits.hold(socket.data.holdKey);
              socket.disconnect(true);
            }
          },
          (err: unknown) => next(err as Error),
        );
      });
    }

    io.on('connection', (socket) => {
      const { accountId, lang } = socket.data;
      limitEvents(socket);
      void socket.join([accountRoom(accountId), langRoom(accountId, lang)]);
      // what the page shows while visible (issue 23): pushes for it are not sent; flood-limited like
      // every event (limitEvents above), a malformed one clears it
      socket.on(viewingEvent, (payload: unknown) => {
        const parsed = ViewingEvent.safeParse(payload);
        socket.data.viewing = parsed.success ? parsed.data.chat : null;
        metrics.socketEvent(viewingEvent, parsed.success ? 0 : 100001);
      });
      socket.on(socketEvents.sendMessage, (payload: unknown, ack?: unknown) => {
        const callback = typeof ack === 'function' ? (ack as Ack) : undefined;
        onSend(socket, payload, callback).catch((err: unknown) => {
          log.error({ err }, 'sendMessage failed');
          const raw = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<
            string,
            unknown
          >;
          refuseSend(socket, raw, 100000, socket.data.lang, callback);
        });
      });
    });

    /**
     * A captcha solved by a signed-in account (confirmCaptcha answered 200 with its token) lifts the
     * new-number guard of sending (100010).
     */
    // onSend, not onResponse: recorded before the client hears the answer, so its next send sees it
    app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 200 || req.routeOptions.url !== endpoints.confirmCaptcha.path) return payload;
      const header = req.headers['auth-token'];
      const token = Array.isArray(header) ? header[0] : header;
      if (!token) return payload;
      const session = await sessions.authenticate(token, req.ctx.brand.id).catch(() => null);
      if (session) await chats.captchaSolved(session.accountId);
      return payload;
    });

    app.addHook('preClose', async () => {
      sessions.events.off('revoked', onRevoked);
      realtime.bind(null);
      // only this process's sockets (with the Redis adapter, io.disconnectSockets would end all servers')
      io.local.disconnectSockets(true);
      io.engine.close();
      // the adapter's subscriptions end with their connections
      pub?.disconnect();
      sub?.disconnect();
    });
  },
  { name: 'realtime', dependencies: ['context'] },
);
