import { zeroMinor, type Minor } from '@numa/contract';
import type { Database, Tx } from '../../../db';
import { addMonthsIso, isoDay } from '../../../lib/dates';
import { phoneFacts } from '../../../lib/sms';
import { numbersRepo, type VirtualNumber } from '../../../repositories/numbers';

export type { VirtualNumber } from '../../../repositories/numbers';

export class NumberRuleError extends Error {}

export interface AssignNumber {
  accountId: number;
  number: string;
  planId?: number;
  monthRent?: Minor;
  tollFreeVerified?: boolean;
  paymentDate?: string;
}

/**
 * Gives a number to an account in the caller's transaction (operators, demo data; the numbers area
 * rents them later). The number must be a valid phone number and not held by anyone on the platform.
 */
export async function assignNumber(tx: Tx, p: AssignNumber): Promise<VirtualNumber> {
  const facts = phoneFacts(p.number);
  if (!facts)
    throw new NumberRuleError(
      `${p.number} is not a valid phone number (give it with its country code, e.g. +14155550100).`,
    );
  if (!facts.country) throw new NumberRuleError(`${p.number}: its country cannot be told.`);
  const held = await numbersRepo.byFullNumber(tx, facts.full);
  if (held) {
    throw new NumberRuleError(
      held.accountId === p.accountId
        ? `+${facts.full} is already this account's.`
        : `+${facts.full} is held by account ${held.accountId}.`,
    );
  }
  const row = await numbersRepo.insert(tx, {
    accountId: p.accountId,
    telCode: facts.telCode,
    number: facts.national,
    country: facts.country,
    tollFree: facts.tollFree,
    tollFreeVerified: p.tollFreeVerified ?? false,
    planId: p.planId ?? 0,
    paymentDate: p.paymentDate ?? addMonthsIso(isoDay(Date.now()), 1),
    monthRent: p.monthRent ?? zeroMinor,
  });
  if (!row) throw new NumberRuleError(`+${facts.full} was just taken by another account.`);
  return row;
}

/** Numbers held by accounts: list, assign, release (the operator command; renting them: ../numbers). */
export function createNumbersService(db: Database) {
  return {
    ofAccount: (accountId: number) => numbersRepo.ofAccount(db.q, accountId),
    byFullNumber: (fullNumber: string) => numbersRepo.byFullNumber(db.q, fullNumber),
    assign: (p: AssignNumber) => db.tx((tx) => assignNumber(tx, p)),
    release: (fullNumber: string) => numbersRepo.remove(db.q, fullNumber),
    callSettings: (accountId: number) => numbersRepo.callSettings(db.q, accountId),
  };
}

export type NumbersService = ReturnType<typeof createNumbersService>;
