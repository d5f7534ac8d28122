import type { BrandId, LanguageCode } from '@numa/contract';
import { brands } from '@numa/contract/brands';

/**
 * What the host put in the page's query (spec 001 §2): platform, osType=pc, languagecode, token and
 * optionally phone and email, plus the page's own `view` and its values (a return URL after Recharge).
 * The token is taken out of the address at once (it is kept in memory only).
 */
const q = new URLSearchParams(window.location.search);
const platform = (q.get('platform') ?? 'numa') as BrandId;

export const page = {
  platform: platform in brands ? platform : ('numa' as BrandId),
  osType: q.get('osType') ?? 'pc',
  languagecode: (q.get('languagecode') === 'zh_cn' ? 'zh_cn' : 'en') as LanguageCode,
  token: q.get('token') ?? '',
  phone: q.get('phone'),
  email: q.get('email'),
  view: q.get('view'),
  values: q,
};

if (q.has('token')) {
  const rest = new URLSearchParams(q);
  rest.delete('token');
  window.history.replaceState(null, '', `${window.location.pathname}?${rest}`);
}
