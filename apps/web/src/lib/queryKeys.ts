/**
 * Every query key of the web client, built here and nowhere else (issue 19 §3; lint refuses an array
 * literal as a `queryKey` or as the key argument of the query client's methods anywhere but this
 * file). A key starts with its area, so `queryKeys.codes.all` (`['codes']`) reaches every query of
 * the area at once; the functions take what the answer depends on. An area's own `api/` files are
 * the only readers of their keys, except the account's (balance, info, own numbers), which every
 * area that changes them refreshes.
 */
export const queryKeys = {
  account: {
    /** getAccountInfo: phone, e-mail, flags. */
    info: () => ['account', 'info'] as const,
    /** queryBalance; the `balance` socket event writes it too (lib/balance.ts). */
    balance: () => ['account', 'balance'] as const,
    /** The billing profile and its review state (getProfile). */
    profile: () => ['account', 'profile'] as const,
    /** The identity documents and their review state (getKYCInfo). */
    kyc: () => ['account', 'kyc'] as const,
    /** getInviter: whether a code can still be redeemed. */
    inviter: () => ['account', 'inviter'] as const,
    /** queryInviteInfo: the account's own invite code and its bonus. */
    inviteInfo: () => ['account', 'inviteInfo'] as const,
    /**
     * The account's rented numbers (getVirtualPhoneList): the chats, the numbers tab and the profile
     * read the same query, so a rented number shows in Chats at once.
     */
    ownNumbers: () => ['chats', 'virtualPhones'] as const,
  },
  /** The account's saved replies (issue 22 §3): the composer's menu and the Account panel. */
  templates: () => ['chats', 'templates'] as const,
  /** A conversation's scheduled messages (issue 22 §2): waiting, sending or failed. */
  scheduled: (from: string, to: string) => ['chats', 'scheduled', from, to] as const,
  /** Message search results of a query (issue 22 §1), paged by cursor. */
  chatSearch: (q: string) => ['chats', 'search', q] as const,
  ads: {
    banner: () => ['ads', 'banner'] as const,
  },
  /** The apps codes can be received for, as the anonymous front and public pages read them. */
  appList: (lang: string) => ['appList', lang] as const,
  codes: {
    all: ['codes'] as const,
    apps: (lang: string) => ['codes', 'apps', lang] as const,
    numbers: (app: string, country: string) => ['codes', 'numbers', app, country] as const,
    fee: (app: string, country: string) => ['codes', 'fee', app, country] as const,
    anonymous: (app: string, country: string) => ['codes', 'anonymous', app, country] as const,
    accountApps: () => ['codes', 'accountApps'] as const,
    accountNumbers: (app: string) => ['codes', 'accountNumbers', app] as const,
    history: (ym: string) => ['codes', 'history', ym] as const,
  },
  contacts: {
    book: () => ['contacts', 'book'] as const,
  },
  /** The Developer panel (issue 21): API keys, webhook endpoints and an endpoint's delivery log. */
  push: {
    settings: (endpoint: string | null) => ['push', 'settings', endpoint ?? ''] as const,
    all: ['push'] as const,
  },
  developer: {
    all: ['developer'] as const,
    keys: () => ['developer', 'keys'] as const,
    endpoints: () => ['developer', 'endpoints'] as const,
    deliveries: (endpointId: string) => ['developer', 'deliveries', endpointId] as const,
  },
  /** The static country lists (public/countries). */
  countries: (lang: string) => ['countries', lang] as const,
  history: {
    /** Every month's bills and payments (prefixes: a balance change invalidates them all). */
    allPayments: ['history', 'payments'] as const,
    allBills: ['history', 'bills'] as const,
    payments: (ym: string) => ['history', 'payments', ym] as const,
    bills: (ym: string) => ['history', 'bills', ym] as const,
    sms: (ym: string) => ['history', 'sms', ym] as const,
    calls: (ym: string) => ['history', 'calls', ym] as const,
  },
  numbers: {
    all: ['numbers'] as const,
    /** names (countries, provinces) come in the interface language: one entry per language */
    areas: (lang: string) => ['numbers', 'areas', lang] as const,
    /** Every area's free numbers (refreshed after a number was taken). */
    freeAll: ['numbers', 'free'] as const,
    free: (code: string, type: string, areaCode: string | undefined) =>
      ['numbers', 'free', code, type, areaCode ?? ''] as const,
    plans: (code: string, type: string, lang: string) => ['numbers', 'plans', code, type, lang] as const,
    history: (month: string) => ['numbers', 'history', month] as const,
    /** The plans a number may change to (getManagePlanList). */
    manage: (fullNumber: string) => ['numbers', 'manage', fullNumber] as const,
  },
  payments: {
    methods: () => ['payments', 'methods'] as const,
    status: (orderId: string) => ['payments', 'status', orderId] as const,
  },
  rates: (rateType: string, lang: string) => ['rates', rateType, lang] as const,
};
