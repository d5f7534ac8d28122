import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brands } from '@numa/contract';
import { refuseReasonMax, type PendingReview, type ReviewSubject } from '../../services/review';
import { CliError, describeAccount, type CliContext, type Command } from '../context';

const statusName: Record<number, string> = {
  [-1]: 'not submitted',
  0: 'not submitted',
  1: 'under review',
  2: 'verified',
  100: 'refused',
};
const extOf: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

async function mustFind(ctx: CliContext, who: string | undefined) {
  if (!who) throw new CliError('Which account? Give an id, an e-mail or a full number (+14155550100).');
  const a = await ctx.operator.find(who, ctx.brand);
  if (!a) throw new CliError(`No ${ctx.brand} account matches ${who}.`);
  return a;
}

function subjectOf(s: string | undefined): ReviewSubject {
  if (s === 'profile' || s === 'kyc') return s;
  throw new CliError('Say what to review: profile (billing profile) or kyc (identity documents).');
}

const who = (p: PendingReview) =>
  [p.email, p.phone ? `+${p.telCode} ${p.phone}` : null].filter(Boolean).join('  ') || '-';

function printPending(ctx: CliContext, title: string, rows: PendingReview[]) {
  ctx.out(`${title} (${rows.length})`);
  for (const r of rows)
    ctx.out(
      `  account ${String(r.accountId).padEnd(6)} ${r.brand.padEnd(11)} ${who(r).padEnd(44)} submitted ${r.submittedAt.toISOString()}`,
    );
}

/**
 * Operator review of billing profiles and identity documents (issue 4): list what waits, show one
 * account's submissions (exporting its identity images to a folder), approve, or refuse with a reason
 * the user sees on their next refresh.
 */
export const reviewCommands: Command[] = [
  {
    name: 'review list',
    usage: 'review list [--brand numa]',
    summary: 'Billing profiles and identity documents waiting for review (all brands unless --brand).',
    async run(ctx, _args, flags) {
      const reviews = ctx.review;
      const brand = flags.brand === undefined ? undefined : ctx.brand;
      const { profiles, kyc } = await reviews.pending(brand);
      printPending(ctx, 'billing profiles under review', profiles);
      printPending(ctx, 'identity documents under review', kyc);
    },
  },
  {
    name: 'review show',
    usage: 'review show <id|email|+number> [/absolute/folder] [--brand numa]',
    summary:
      "Show an account's billing profile and identity documents; with a folder, write the images there.",
    async run(ctx, [account, folder]) {
      const a = await mustFind(ctx, account);
      const reviews = ctx.review;
      describeAccount(a, brands[a.brand]).forEach((l) => ctx.out(l));
      const { profile, kyc } = await reviews.submissions(a.id);
      ctx.out(
        `  billing profile: ${statusName[profile?.status ?? -1]}${profile ? `, submitted ${profile.submittedAt.toISOString()}` : ''}`,
      );
      if (profile) {
        ctx.out(`    name      ${profile.firstName} ${profile.lastName}`);
        ctx.out(
          `    address   ${profile.address}, ${profile.city}, ${profile.province} ${profile.postalCode}`,
        );
        ctx.out(`    country   ${profile.country}${profile.regionCode ? ` (${profile.regionCode})` : ''}`);
        if (profile.status === 100) ctx.out(`    refused   ${profile.refuseReason}`);
      }
      ctx.out(
        `  identity documents: ${statusName[kyc?.status ?? -1]}${kyc && kyc.status !== -1 ? `, submitted ${kyc.submittedAt.toISOString()}` : ''}`,
      );
      if (kyc?.status === 100) ctx.out(`    refused   ${kyc.refuseReason}`);
      const images = await reviews.images(a.id);
      if (!images.length) return;
      if (!folder) {
        ctx.out(
          `    ${images.length} image(s) on file: ${images.map((i) => i.slot).join(', ')} (give a folder to write them)`,
        );
        return;
      }
      const dir = path.resolve(folder);
      mkdirSync(dir, { recursive: true });
      for (const img of images) {
        const file = path.join(dir, `account-${a.id}-${img.slot}.${extOf[img.mime] ?? 'bin'}`);
        writeFileSync(file, img.bytes, { mode: 0o600 });
        ctx.out(`    ${img.slot.padEnd(8)} ${file}`);
      }
    },
  },
  {
    name: 'review approve',
    usage: 'review approve <id|email|+number> profile|kyc [--brand numa]',
    summary: 'Approve a billing profile or identity documents under review (status 2, verified).',
    async run(ctx, [account, what]) {
      const a = await mustFind(ctx, account);
      const subject = subjectOf(what);
      const r = await ctx.review.decide(a.id, subject, 'approve');
      if (!r.changed)
        throw new CliError(
          `Account ${a.id} has no ${subject} under review (it is ${statusName[r.status] ?? r.status}).`,
        );
      ctx.out(`account ${a.id}: ${subject} verified`);
    },
  },
  {
    name: 'review refuse',
    usage: 'review refuse <id|email|+number> profile|kyc --reason "why" [--brand numa]',
    summary:
      'Refuse a billing profile or identity documents under review (status 100); the user sees the reason.',
    options: { reason: { type: 'string' } },
    async run(ctx, [account, what], flags) {
      const a = await mustFind(ctx, account);
      const subject = subjectOf(what);
      const reason = typeof flags.reason === 'string' ? flags.reason.trim() : '';
      if (!reason) throw new CliError('Give the reason the user will see: --reason "…".');
      if (reason.length > refuseReasonMax)
        throw new CliError(`Keep the reason under ${refuseReasonMax} characters.`);
      const r = await ctx.review.decide(a.id, subject, 'refuse', reason);
      if (!r.changed)
        throw new CliError(
          `Account ${a.id} has no ${subject} under review (it is ${statusName[r.status] ?? r.status}).`,
        );
      ctx.out(`account ${a.id}: ${subject} refused — "${reason}"`);
    },
  },
];
