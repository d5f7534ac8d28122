import { useAccountInfo } from '../../shared/api/account';

/** The country code a new phone row starts with: the account's own, else by the browser's language. */
export function useDefaultTelCode(): string {
  const info = useAccountInfo();
  if (info.data?.telCode) return info.data.telCode;
  return navigator.language.toLowerCase().startsWith('zh') ? '86' : '1';
}
