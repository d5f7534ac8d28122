import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@numa/contract';
import { call } from '../../lib/api';

export const chatKeys = {
  phones: ['chats', 'virtualPhones'] as const,
};

/** The account's own numbers (spec 000 §3 Virtual phone list). */
export const useVirtualPhones = () =>
  useQuery({
    queryKey: chatKeys.phones,
    queryFn: () => call(endpoints.getVirtualPhoneList, {}, { silent: true }),
    staleTime: 60_000,
  });

/** Transcribes a voice message; the failure (600000 and others) is shown in place by the caller. */
export const speechToText = (media: string, language: string, smsId: string) =>
  call(endpoints.speechToText, { media, language, smsId }, { silent: true });
