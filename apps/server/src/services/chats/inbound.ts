import { constants, zeroMinor } from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import { countSegments, telCodeOf } from '../../lib/sms';
import type { CarrierPort, InboundMessage } from '../../providers/carrier/port';
import type { RealtimeHub } from '../../realtime/hub';
import { messagesRepo } from '../../repositories/messages';
import { numbersRepo } from '../../repositories/numbers';
import type { MediaService } from '../media';
import { isUniqueViolation } from '../verify';

/**
 * Messages from outside to one of our numbers (the carrier's inbound side, and the simulator's
 * delivery between two of our numbers): stored once per carrier id (`in:<id>` smsId, so a repeated
 * webhook or a resumed simulated send stores one copy), with their media, then pushed to the holder's
 * sockets. Receiving is free.
 */
export function createInbound(deps: {
  db: Database;
  carrier: CarrierPort;
  media: MediaService;
  realtime: RealtimeHub;
  log: FastifyBaseLogger;
}) {
  const { db, carrier, media, realtime, log } = deps;

  return async function inbound(m: InboundMessage): Promise<{ delivered: boolean }> {
    const to = m.to.replace(/\D/g, '');
    const holder = await numbersRepo.byFullNumber(db.q, to);
    if (!holder) return { delivered: false };
    const from = m.from.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
    if (from.length < 3) {
      log.warn({ from: m.from, to }, 'inbound message without a usable sender dropped');
      return { delivered: false };
    }
    const smsId = `in:${m.carrierId.replace(/[^A-Za-z0-9_.:-]/g, '')}`.slice(0, 64);
    const type = m.type ?? (m.media.length ? 'mms' : 'sms');
    // files fetched from the carrier are stored before the message: look for a repeat first then;
    // otherwise the unique smsId index tells (a repeat rolls back)
    if (m.media.some((i) => 'bytes' in i) && (await messagesRepo.bySmsId(db.q, holder.accountId, smsId)))
      return { delivered: true };
    let row;
    try {
      row = await db.tx(async (tx) => {
        const urls: string[] = [];
        for (const item of m.media) {
          if ('mediaId' in item) {
            await media.grant(tx, item.mediaId, holder.accountId);
            urls.push(`/media/${item.mediaId}`);
          } else {
            const saved = await media.save({
              accountId: holder.accountId,
              kind: type === 'voicemail' ? 'voicemail' : 'mms',
              bytes: item.bytes,
              allowed: type === 'voicemail' ? constants.voicemailMimeTypes : constants.mmsMimeTypes,
              maxBytes: constants.mmsMaxBytes,
              fileName: item.fileName,
              q: tx,
            });
            urls.push(saved.url);
          }
        }
        return messagesRepo.insert(tx, {
          accountId: holder.accountId,
          ownFullNumber: holder.fullNumber,
          ownTelCode: holder.telCode,
          otherFullNumber: from,
          otherTelCode: telCodeOf(from),
          direction: 'in',
          type,
          text: m.text.slice(0, constants.smsTextMax * 4),
          media: urls.join(','),
          status: constants.messageStatus.sent,
          smsId,
          charge: zeroMinor,
          segments: type === 'sms' ? countSegments(m.text).segments : 1,
          carrier: carrier.name,
          carrierId: m.carrierId,
          stt: m.stt,
          sttStatus: m.sttStatus,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err) && (await messagesRepo.bySmsId(db.q, holder.accountId, smsId)))
        return { delivered: true };
      throw err;
    }
    realtime.emitMessage(row);
    return { delivered: true };
  };
}
