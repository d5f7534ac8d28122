/**
 * Business constants and limits (spec 000 §9 and spec 001 §9), plus the sign-in rules of the
 * foundation issue. One place; server and client both read them.
 */
/**
 * The sign-in codes: the one-time codes sent by SMS or e-mail to sign in or to verify an address
 * (issue 19 §4: not the paid verification codes, which are `codes`).
 */
const signin = {
  codeLength: { phone: 4, email: 6 },
  codeTtlMs: 10 * 60 * 1000,
  maxWrongTries: 5,
  resendCountdownS: 60,
  /** Code sends allowed per address per hour, and per IP per hour, before a captcha or 100015. */
  sendsPerAddressPerHour: 5,
  sendsPerIpPerHour: 20,
  /**
   * Wrong codes per address (phone or e-mail, per brand) in any 24 hours, across sign-in and verify
   * (issue 9, hole 4). At the cap every check and send for the address answers 100030 until the
   * oldest wrong try is a day old. A 4-digit code then takes ln 2 / -ln(1 - 1/10^4) ≈ 6,931 guesses
   * for a 50 % chance, ≈ 693 days (1.9 years) at 10 a day; it was ≈ 11.5 days at 25 an hour.
   */
  wrongTriesPerAddressPerDay: 10,
} as const;

/** The paid verification codes: numbers locked for an app's code, kept by the month, their history. */
const codes = {
  /** Phone-option numberType (spec 001 §3): 1 may be subscribed, 2 no subscribe button. */
  numberTypes: { subscribable: 1, temporary: 2 },
  /** subStatus of verification numbers (spec 001 §4). */
  subStatus: { notSubscribed: 0, subscribed: 1 },
  /** A locked code number stays locked for the polling window: 180 polls of 5 s (spec 001 §9). */
  lockMs: 15 * 60 * 1000,
  /** Decided: live code locks one account may hold at once (so nobody empties the pool). */
  maxLiveLocks: 3,
  /** A verification number lasts a month unless subscribed (spec 001 §9). */
  numberValidityDays: 30,
  /** Verification-history types (spec 001 §3: 1, 2, 100; names decided). 100 offers re-subscribe. */
  historyTypes: { subscribe: 1, renew: 2, expired: 100 },
  /** The receive panel's polling: this many polls, this far apart (spec 001 §9), and the hint's minutes. */
  pollCounter: 180,
  pollIntervalMs: 5000,
  hintMinutes: 15,
} as const;

/** What is paid by the period (rented numbers): renewal grace, restore window, subscription history. */
const rentals = {
  /** Subscription-history types (spec 001 §3: 1, 2, 3, 5, 6, 7, 100; names decided). 100 offers re-subscribe. */
  historyTypes: {
    subscribe: 1,
    renew: 2,
    changePlan: 3,
    unsubscribe: 5,
    refund: 6,
    resubscribe: 7,
    expired: 100,
  },
  /**
   * Renewals (decided): a rent that cannot be paid on its date is retried daily for this many days
   * (the number keeps working and the user is told, by socket and e-mail); then the number is reclaimed
   * (history type 100).
   */
  graceDays: 7,
  /** A reclaimed number may be re-subscribed for this many days after it was reclaimed, while nobody else holds it (decided). */
  restoreDays: 30,
} as const;

export const constants = {
  signin,
  codes,
  rentals,

  // --- sign-in (captcha and session; the sign-in codes are constants.signin) ---
  /** Captcha: wrong answers before the client locks (spec 001 §8), and lifetime. */
  captchaFailuresBeforeLock: 3,
  /**
   * How long the captcha stays locked after the third failure (ours: the spec says only "try again
   * later"), and the name of the cookie holding the failure count or the lock's time (spec 001 §8).
   * The server writes it with each answer (Set-Cookie), the page only reads it.
   */
  captchaLockMs: 10 * 60 * 1000,
  captchaFailuresCookie: 'numa_captcha_failures',
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
  /** Message search (issue 22 §1): results per page, the longest query, and terms per query. */
  searchPageSize: 20,
  searchQueryMax: 100,
  searchTermsMax: 8,
  /** A search hit's snippet: about this many characters around the first match. */
  searchSnippetChars: 120,
  /** Saved replies (issue 22 §3): how many an account keeps, and their name's and text's lengths. */
  templatesMax: 50,
  templateNameMax: 40,
  templateTextMax: 1000,
  /**
   * Scheduled messages (issue 22 §2, decided): SMS only, the text's length, how far ahead (days), how
   * soon at the earliest (ms from now), and how many may wait per account.
   */
  scheduled: {
    textMax: 1600,
    maxAheadDays: 366,
    minLeadMs: 60_000,
    maxWaiting: 100,
  },
  nearBottomPx: 200,
  phoneMinDigits: 5,
  phoneKeepLastChars: 11,
  chatImage: {
    sendAsIsBelow: 307_200,
    maxBytes: 2_097_152,
    qualityNumerator: 3_072_000,
    minQuality: 0.1,
    tooLargeNoticeMs: 3000,
  },
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
  identityImage: {
    maxBytes: 5_242_880,
    compressFrom: 1_048_576,
    minQuality: 0.1,
    perSection: 2,
    types: ['png', 'jpg', 'jpeg'],
  },
  billingCityMax: 20,
  unlockBonus: 0.2,
  /**
   * Invite bonuses one inviter is paid per calendar month (UTC), at most (issue 9, hole 8: 51
   * redemptions once paid 10.2 Coins): 10 × 0.2 = 2 in the brand's unit. A redeemer's phone number
   * earns the bonus once across all accounts of a brand.
   */
  inviteBonusesPerInviterPerMonth: 10,
  inviteCopiedMs: 2000,
  dialogCopiedMs: 1000,

  // --- money and histories (spec 001 §9) ---
  historyMonthTabs: 4,
  verificationHistoryMonthTabs: 6,
  pageSize: {
    payment: 1000,
    bill: 200,
    call: 200,
    sms: 200,
    subscription: 200,
    subscribedNumbers: 200,
    rates: 100,
    codeSms: 20,
  },
  defaultRateCountry: 'US',
  scrollThresholdPx: 20,
  billScrollThresholdPx: 10,
  billLoadDebounceMs: 1000,
  seeMoreDebounceMs: 1000,
  paymentHistoryDecimals: 2,

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
  /**
   * Bill (ledger row) type codes (spec 001 §9: 1 recharge, 2 to 10 various charges, 50 SIM or plan
   * order). Decided names for 2..10. A bill's `charge` is the signed balance change.
   * Ours (issue 18, money going back through the payment provider): 11 a top-up refunded to the payer
   * (provider refund, or the operator's `payment refund`), 12 a chargeback (the payer disputed the
   * top-up with their bank), 13 a chargeback reversed (the dispute was won: the money comes back),
   * 14 a refund reversed (a refund that failed after it was debited: the money comes back). Only 11
   * and 12 (and an operator's adjustment, 9) may take a balance below zero. Their options: amount
   * (the top-up money part), gift (the bonus part), purchaseMethod, orderId. Labels in both
   * languages: `billTypeLabel`.
   */
  billTypes: {
    recharge: 1,
    sms: 2,
    mms: 3,
    call: 4,
    numberRent: 5,
    codeReceive: 6,
    inviteBonus: 7,
    refund: 8,
    adjustment: 9,
    redeemBonus: 10,
    topUpRefund: 11,
    chargeback: 12,
    chargebackReversed: 13,
    refundReversed: 14,
    simOrPlanOrder: 50,
  },
  /** Payment order states (ours: cancelPayment / queryPaymentStatus). */
  paymentStatuses: ['pending', 'paid', 'cancelled', 'failed', 'expired'],
  /**
   * Payment-method flags of getPaymentMethods (spec 001 §3), each with its own needSetPhone.
   * The submit call per method: paySubmit (wechatpay, unionpay, creditCard), alipay/paySubmit,
   * cryptoCurrency/paySubmit (cryptoPay: the hosted crypto checkout), paypal/paySubmit,
   * etherPay/paySubmit (usdtPay, usdcPay, tusdPay, ethPay, bchPay).
   */
  paymentMethods: [
    'wechatpay',
    'alipay',
    'unionpay',
    'paypal',
    'usdtPay',
    'usdcPay',
    'tusdPay',
    'ethPay',
    'bchPay',
    'cryptoPay',
    'creditCard',
  ],
  /** The methods paySubmit itself takes as `payment_method`. */
  paySubmitMethods: ['wechatpay', 'unionpay', 'creditCard'],
  /** Payment-history `method` values (spec 001 §3; `creditCard` is ours, for card payments). */
  purchaseMethods: [
    'wechatpay',
    'alipay',
    'paypal',
    'appleid',
    'invite',
    'googlewallet',
    'UnionPay',
    'Crypto',
    'creditCard',
  ],
  /**
   * Product ids (spec 001 §9: method prefix, web channel, currency, amount or CUSTOM; format decided):
   * `<prefix>_web_<currency>_<amount|CUSTOM>`, e.g. `wechatpay_web_usd_10`, `alipay_web_cny_CUSTOM`.
   * Currency is `usd` for Coins and dollars (1 Coin = 1 USD) and `cny` for cloud coins. The prefix
   * per way of paying is below (`crypto` is etherPay's direct transfer). See `productId()`.
   */
  productPrefixes: {
    wechatpay: 'wechatpay',
    alipay: 'alipay',
    unionpay: 'unionpay',
    paypal: 'paypal',
    creditCard: 'card',
    cryptoPay: 'cryptopay',
    crypto: 'crypto',
  },
  /** Crypto amounts: at most 8 decimals (spec 001 §9), sent as decimal text to stay exact. */
  cryptoDecimals: 8,
  /** How long a crypto transfer may take (spec 001 §9: up to 48 hours). */
  cryptoSettleMaxMs: 48 * 3600 * 1000,

  /** How many free numbers getVirtualPhoneByAreaCode lists (decided). */
  numbersPerArea: 10,
  /** SIM / plan order card types (spec 001 §9: 1 eSIM, 2, 3; 2 and 3 decided). */
  cardTypes: { esim: 1, physicalSim: 2, planOnly: 3 },
  /** Plan validity types (spec 001 §9: 1 to 4; meanings decided). */
  validityTypes: { month: 1, quarter: 2, halfYear: 3, year: 4 },
  /** Countries numbers are rented in (spec 001 §9), in the order the country select shows them. */
  numberCountries: ['US', 'CA', 'GB', 'AU', 'TollFree'],
  /** New number step 1: province hidden for these, area code hidden for GB and AU (spec 001 §2). */
  countriesWithoutProvince: ['GB', 'AU', 'TollFree'],
  countriesWithoutAreaCode: ['GB', 'AU'],
  /** Kinds of rentable number (`type` of getVirtualPhoneByAreaCode / getPlanList; ids decided). */
  numberKinds: ['local', 'mobile', 'tollFree'],
  /** Call tariffs with a named line (spec 001 §3: 114, 116, 200; names decided). */
  tariffIds: { commonLine: 114, economicLine: 116, tollFreeLine: 200 },
  /** Call kinds in the call history (decided). */
  callTypes: ['voice', 'forward', 'voicemail'],
  /** getCountryRates `rateType`: the rates page tabs Make Call, Receive Call, SMS, Numbers (decided). */
  rateTypes: ['call', 'receive', 'sms', 'number'],
  /** Plan rent periods (spec 001 §9: month, quarter and year tiers). */
  planRentPeriods: ['month', 'quarter', 'year'],
  /** Plan charge types (decided): 1 a rent per period, 2 pay as you go. */
  planChargeTypes: { periodRent: 1, payAsYouGo: 2 },

  // --- messages and real time ---
  messageTypes: ['sms', 'mms', 'verificationCode', 'voicemail', 'push', '5sim'],
  messageStatus: { sent: 0, pending: 1, failed: 2 },
  /** Client-made message id (smsId): at most 64 characters. */
  smsIdMax: 64,
  /** Longest text of one message (decided: 10 concatenated SMS segments). */
  smsTextMax: 1600,
  /**
   * highlightTarget / highlightText are lists joined by this separator (spec 000 §3; separator
   * decided). Targets are the action links a phrase may open.
   */
  highlightSeparator: '|',
  highlightTargets: ['profile', 'identity'],
  /** Speech-to-text result state of a voice message (decided): 0 none, 1 working, 2 done, 3 failed. */
  sttStatus: { none: 0, working: 1, done: 2, failed: 3 },
  /**
   * Largest MMS file the socket accepts (decided): 5 MB raw, above the client's 2 MB compressed
   * images, leaving room for GIFs that are sent unchanged.
   */
  mmsMaxBytes: 5_242_880,
  /** MIME types an MMS file may have (images from the chat input). */
  mmsMimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'],
  /** Audio types voicemail media is stored as (for speech-to-text and playback). */
  voicemailMimeTypes: ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/amr', 'audio/mp4'],

  // --- account ---
  /** Profile status (spec 000 §4): -1 / 0 not submitted, 1 reviewing, 2 verified, 100 refused. */
  profileStatus: { none: -1, notSubmitted: 0, reviewing: 1, verified: 2, refused: 100 },
  /** Identity (KYC) status (spec 000 §3). Upload and delete only at -1 and 100. */
  kycStatus: { none: -1, reviewing: 1, verified: 2, refused: 100 },
  /** The four identity image parts of updateKYCInfo, and the URL field each replaces. */
  kycFiles: { idCard1: 'idCardUrl1', idCard2: 'idCardUrl2', idHold1: 'idHoldUrl1', idHold2: 'idHoldUrl2' },
  kycMimeTypes: ['image/png', 'image/jpeg'],
  /** The query parameter of an invite link carrying the invite code (decided). */
  referralQueryParam: 'referral',
} as const;
