import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { constants, endpoints, platformKey } from '@numa/contract';
import { invalid, route } from '../lib/route';
import { ApiError } from '../lib/errors';
import { accountText } from '../services/accountTexts';
import type { KycFile, KycSlot } from '../services/profile';

const isSlot = (name: string): name is KycSlot => Object.hasOwn(constants.kycFiles, name);
/** A part named like a slot that does not exist (idCard3 …) is a third image in a section. */
const looksLikeExtraSlot = (name: string) => /^(idCard|idHold)\d+$/.test(name);

/**
 * Reads the multipart body of updateKYCInfo: the four image parts, the four URL fields and
 * `platform`. Files are held in memory (4 × 5 MB at most) so all can be checked before any is kept.
 */
async function readKycForm(req: FastifyRequest, brandId: string) {
  if (!req.isMultipart()) throw new ApiError(100001, null, 'multipart/form-data expected');
  const files: KycFile[] = [];
  const fields: Record<string, string> = {};
  const unknown: string[] = [];
  let platform: string | undefined;
  const max = constants.identityImage.maxBytes;
  try {
    const parts = req.parts({
      limits: { fileSize: max, files: 4, fields: 10, fieldSize: 4096, parts: 14, headerPairs: 50 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (!isSlot(part.fieldname)) {
          part.file.resume();
          if (looksLikeExtraSlot(part.fieldname))
            throw new ApiError(
              100001,
              { field: part.fieldname },
              'third image in a section',
              accountText('kycTooMany'),
            );
          unknown.push(part.fieldname);
          continue;
        }
        try {
          files.push({
            slot: part.fieldname,
            bytes: await part.toBuffer(),
            fileName: part.filename || undefined,
          });
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new ApiError(
              100005,
              { field: part.fieldname, maxBytes: max },
              'file too large',
              accountText('kycTooLarge'),
            );
          }
          throw err;
        }
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (part.fieldname === platformKey) {
          if (platform !== undefined) throw new ApiError(100001, null, 'platform sent twice');
          platform = value;
        } else {
          if (Object.hasOwn(fields, part.fieldname))
            throw new ApiError(100001, null, `${part.fieldname} sent twice`);
          fields[part.fieldname] = value;
        }
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT')
      throw new ApiError(100001, null, 'more than 4 images', accountText('kycTooMany'));
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ApiError(100001, null, 'too many form fields');
    if (code === 'FST_MP_PREMATURE_CLOSE') throw new ApiError(100001, null, 'incomplete form');
    if (err instanceof ApiError) throw err;
    // Everything else raised while reading the parts is the body's own fault (busboy: no boundary,
    // a boundary over 70 characters, an unexpected end, a malformed part header): bad input, 400.
    req.log.info({ err: (err as Error).message }, 'malformed multipart body');
    throw new ApiError(100001, null, 'malformed multipart/form-data body');
  }
  if (unknown.length)
    throw new ApiError(
      100001,
      { issues: unknown.map((path) => ({ path, message: 'Unknown field' })) },
      unknown.join(', '),
    );
  if (platform === undefined)
    throw new ApiError(100001, { issues: [{ path: 'platform', message: 'Required' }] }, 'platform');
  if (platform !== brandId) throw new ApiError(100016);
  const parsed = endpoints.updateKYCInfo.input.safeParse(fields);
  if (!parsed.success) throw invalid(parsed.error);
  return { files, kept: parsed.data };
}

/** Billing profile and identity documents (spec 000 §2–§5, spec 001 §4). */
export default async function profileRoutes(app: FastifyInstance) {
  const { profile: profiles } = app.deps;

  route(app, endpoints.getProfile, async ({ session }) => profiles.getProfile(session.accountId));
  route(
    app,
    endpoints.updateProfile,
    async ({ input, session }) => profiles.updateProfile(session.accountId, input),
    {
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
  );
  route(app, endpoints.getKYCInfo, async ({ session }) => profiles.getKyc(session.accountId));
  route(
    app,
    endpoints.updateKYCInfo,
    async ({ req, session, ctx }) => {
      const { files, kept } = await readKycForm(req, ctx.brand.id);
      return profiles.submitKyc(session.accountId, files, kept);
    },
    { rateLimit: { max: 20, timeWindow: 600_000 } },
  );
}
