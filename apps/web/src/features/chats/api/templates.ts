import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

/** The account's saved replies (issue 22 §3). */
export const useTemplates = () =>
  useQuery({ queryKey: queryKeys.templates(), queryFn: () => call(endpoints.getTemplates, {}) });

/** Adds or changes one (the full list's answer, 400000, shows in the app's alert). */
export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (p: { id?: string; name: string; text: string }) => call(endpoints.saveTemplate, p),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.templates() }),
  });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.delTemplate, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.templates() }),
  });
}
