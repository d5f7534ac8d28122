/**
 * Business constants and limits (spec 000 §9 and spec 001 §9), plus the sign-in rules of the
 * foundation issue. One place; server and client both read them.
 */
export const constants = {
  // --- sign-in and verification codes ---
  codeLength: { phone: 4, email: 6 },
  codeTtlMs: 10 * 60 * 1000,
  codeMaxWrongTries: 5,
  resendCountdownS: 60,
  /** Code sends allowed per address per hour, and per IP per hour, before a captcha or 100015. */
  codeSendsPerAddressPerHour: 5,
  codeSendsPerIpPerHour: 20,
  /** Captcha: wrong answers before the client locks (spec 001 §8), and lifetime. */
  captchaFailuresBeforeLock: 3,
  captchaTtlMs: 5 * 60 * 1000,
  captchaLoadingClearMs: 4000,
  captchaLoaderDelayMs: 1000,
  /** Login attempts per IP per 10 minutes. */
  loginAttemptsPerIp: 30,

  // --- session ---
  tokenRefreshMs: 43_200_000,
  /** A token lives this long after it was issued or refreshed (ours). */
  tokenTtlMs: 30 * 24 * 3600 * 1000,
  /** A replaced token keeps working this long, so other tabs can pick up the new one (ours). */
  tokenRefreshGraceMs: 60 * 1000,

  // --- chats (spec 000 §9) ---
  messageGapMs: 300_000,
  unreadCap: 99,
  recentAppsMax: 10,
  resetFlagMs: 5000,
  chatSwitchDebounceMs: 300,
  scrollDebounceMs: 500,
  connectedAfterMs: 100,
  socketTimeoutMs: 25_000,
  reconnectDelayMinMs: 500,
  reconnectDelayMaxMs: 60_000,
  reconnectJitterMaxMs: 60_000,
  localCacheMonths: 4,
  chatListMonths: 4,
  messagePageSize: 500,
  nearBottomPx: 200,
  phoneMinDigits: 5,
  phoneKeepLastChars: 11,
  chatImage: { sendAsIsBelow: 307_200, maxBytes: 2_097_152, qualityNumerator: 3_072_000, minQuality: 0.1, tooLargeNoticeMs: 3000 },
  chatImageExtensions: ['png', 'jpg', 'jpe', 'jpeg', 'bmp', 'svg', 'gif'],

  // --- contacts ---
  addressBookPageSize: 500,
  contactPhonesMax: 5,
  /** 'Name must be less than 20 characters'. */
  contactNameMaxExclusive: 20,
  contactCompanyMax: 20,
  contactNoteMax: 100,
  contactTags: ['Mobile', 'Home', 'Work', 'Other'],
  contactDefaultTag: 'Other',
  contactRowHeight: 62,
  avatarColours: 7,
  snackbarMs: 5000,

  // --- account ---
  identityImage: { maxBytes: 5_242_880, compressFrom: 1_048_576, minQuality: 0.1, perSection: 2, types: ['png', 'jpg', 'jpeg'] },
  billingCityMax: 20,
  unlockBonus: 0.2,
  inviteCopiedMs: 2000,
  dialogCopiedMs: 1000,

  // --- money and histories (spec 001 §9) ---
  historyMonthTabs: 4,
  verificationHistoryMonthTabs: 6,
  pageSize: { payment: 1000, bill: 200, call: 200, sms: 200, subscription: 200, subscribedNumbers: 200, rates: 100, codeSms: 20 },
  defaultRateCountry: 'US',
  scrollThresholdPx: 20,
  billScrollThresholdPx: 10,
  billLoadDebounceMs: 1000,
  seeMoreDebounceMs: 1000,
  paymentHistoryDecimals: 2,

  // --- code receiving ---
  codePollCounter: 180,
  codePollIntervalMs: 5000,
  codeHintMinutes: 15,
  codeNumberSearchAbove: 4,
  codeNumberListHeight: 180,

  // --- numbers ---
  numberRowHeight: 48,
  verificationHistoryRowHeight: 85,
  planChangeTypes: { immediate: 1, nextCycle: 2 },

  // --- payments ---
  cryptoCurrencies: ['USDC', 'USDT', 'TUSD', 'ETH', 'BCH'],
  cryptoNetworks: ['ERC-20', 'TRC-20', 'BSC', 'Polygon'],
  usdcNetworks: ['ERC-20', 'BSC', 'Polygon'],
  cryptoWithoutNetwork: ['ETH', 'BCH'],
  paymentDeviceType: 'web',
  paymentBrowserType: 'PC',
  billTypes: { recharge: 1, simOrPlanOrder: 50 },
} as const;
