import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ScheduledMessage } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

/** A conversation's scheduled messages (issue 22 §2): waiting, sending or failed, by time. */
export const useScheduled = (fromNumber: string, toNumber: string) =>
  useQuery({
    queryKey: queryKeys.scheduled(fromNumber, toNumber),
    queryFn: () => call(endpoints.getScheduledMessages, { fromNumber, toNumber }, { silent: true }),
  });

/** Schedule, edit and cancel: their refusals (400000 with the reason) are shown where the user looks. */
export function useScheduleActions(fromNumber: string, toNumber: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.scheduled(fromNumber, toNumber) });
  const schedule = useMutation({
    mutationFn: (p: { text: string; sendAt: number }) =>
      call(endpoints.scheduleMessage, { fromNumber, toNumber, ...p }, { silent: true }),
    onSuccess: refresh,
  });
  const edit = useMutation({
    mutationFn: (p: { item: ScheduledMessage; text: string; sendAt: number }) =>
      call(
        endpoints.editScheduledMessage,
        { id: p.item.id, version: p.item.version, text: p.text, sendAt: p.sendAt },
        { silent: true },
      ),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: (item: ScheduledMessage) =>
      call(endpoints.cancelScheduledMessage, { id: item.id }, { silent: true }),
    onSettled: refresh,
  });
  return { schedule, edit, cancel };
}
